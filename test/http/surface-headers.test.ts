import { describe, expect, test } from 'bun:test'
import { pathOf, surfaceHeaders } from '../../src/http/surface-headers.ts'

describe('surface headers', () => {
  test('pathOf gives what new URL(url).pathname gives, for URLs as a Request holds them', () => {
    for (const raw of [
      'http://h/v1/chat/completions',
      'http://h:8080/api/keys?x=1',
      'https://h/api#frag',
      'http://h/v1/../api/keys?a=/b',
      'http://h/v1/./models#x?y',
      'http://h',
      'http://h?q=1',
      'http://[::1]:3000/api/me',
      'http://h/a//b',
      'http://h/%61pi/x',
    ]) {
      const url = new Request(raw).url
      expect({ url, path: pathOf(url) }).toEqual({ url, path: new URL(url).pathname })
    }
  })

  test('security headers on /api, the CORS grant on /v1, nothing elsewhere', () => {
    const headers = surfaceHeaders({ publicUrl: 'https://gw.example', trustedProxies: [] }, { origins: ['https://app.example'] })
    const at = (url: string) => headers(new Request(url, { headers: { origin: 'https://app.example' } }), undefined)
    expect(at('http://h/api/keys')['x-frame-options']).toBe('DENY')
    expect(at('http://h/api')['strict-transport-security']).toContain('max-age=')
    expect(at('http://h/v1/../api/me')['x-frame-options']).toBe('DENY')
    expect(at('http://h/v1/chat/completions')['access-control-allow-origin']).toBe('https://app.example')
    expect(at('http://h/apix')).toEqual({})
    expect(at('http://h/healthz')).toEqual({})
  })
})
