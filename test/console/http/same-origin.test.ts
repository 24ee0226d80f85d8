// The console's cross-site rule, as a table: which state-changing requests are refused.
import { describe, expect, test } from 'bun:test'
import { isCrossSite } from '../../../src/console/http/same-origin.ts'

describe('isCrossSite', () => {
  const url = new URL('http://gw.example:8080/api/keys')
  const check = (method: string, headers: Record<string, string>, own = { https: false, publicUrl: undefined as string | undefined }) =>
    isCrossSite(method, url, new Headers(headers), own)

  test.each([
    ['GET is never refused', 'GET', { origin: 'https://evil.example' }, false],
    ['same origin', 'POST', { origin: 'http://gw.example:8080' }, false],
    ['same origin, other case', 'DELETE', { origin: 'HTTP://GW.EXAMPLE:8080' }, false],
    ['other site', 'POST', { origin: 'https://evil.example' }, true],
    ['other port', 'POST', { origin: 'http://gw.example:9090' }, true],
    ['opaque origin', 'POST', { origin: 'null' }, true],
    ['no Origin, cross-site fetch metadata', 'POST', { 'sec-fetch-site': 'cross-site' }, true],
    ['no Origin, same-site (a sibling subdomain)', 'POST', { 'sec-fetch-site': 'same-site' }, true],
    ['no Origin, same-origin metadata', 'POST', { 'sec-fetch-site': 'same-origin' }, false],
    ['no browser headers at all (curl)', 'POST', {}, false],
  ] as const)('%s', (_, method, headers, refused) => {
    expect(check(method, headers)).toBe(refused)
  })

  test('behind TLS the https origin is ours, the http one is not; PUBLIC_URL is ours', () => {
    expect(check('POST', { origin: 'https://gw.example:8080' }, { https: true, publicUrl: undefined })).toBe(false)
    expect(check('POST', { origin: 'http://gw.example:8080' }, { https: true, publicUrl: undefined })).toBe(true)
    expect(check('POST', { origin: 'https://console.example.com' }, { https: false, publicUrl: 'https://console.example.com/app/' })).toBe(
      false,
    )
  })
})
