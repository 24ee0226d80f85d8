// CORS for /v1 (docs/security.md "CORS"): only configured origins get a grant; a preflight grants
// only the request headers SDKs send.
import { describe, expect, test } from 'bun:test'
import { corsHeaders, preflight } from '../../src/http/cors.ts'

const listed = { origins: ['https://app.example'] }
const any = { origins: ['*'] }

describe('corsHeaders', () => {
  test('a listed origin is echoed, with Vary: Origin and the exposed rate headers', () => {
    const h = corsHeaders(listed, 'https://APP.example')
    expect(h['access-control-allow-origin']).toBe('https://APP.example')
    expect(h.vary).toBe('Origin')
    expect(h['access-control-expose-headers']?.split(', ')).toEqual(
      expect.arrayContaining(['x-request-id', 'retry-after', 'ratelimit-remaining']),
    )
  })

  test('* grants any origin as * without Vary', () => {
    const h = corsHeaders(any, 'https://elsewhere.example')
    expect(h['access-control-allow-origin']).toBe('*')
    expect(h.vary).toBeUndefined()
  })

  test('an unlisted or missing origin gets nothing', () => {
    expect(corsHeaders(listed, 'https://evil.example')).toEqual({})
    expect(corsHeaders(listed, null)).toEqual({})
    expect(corsHeaders({ origins: [] }, 'https://app.example')).toEqual({})
  })
})

describe('preflight', () => {
  const ask = (origin: string, headers: string) =>
    new Headers({ origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers })

  test('a listed origin gets 204 with methods, max-age and only the SDK headers it asked for', async () => {
    const res = preflight(
      listed,
      ask('https://app.example', 'Authorization, content-type, X-Stainless-OS, anthropic-version, x-evil, cookie'),
    )
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS')
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-stainless-os, anthropic-version')
    expect(res.headers.get('access-control-max-age')).toBe('600')
    expect(await res.text()).toBe('')
  })

  test('an unlisted origin gets 204 without a grant', () => {
    const res = preflight(listed, ask('https://evil.example', 'authorization'))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-headers')).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
  })
})
