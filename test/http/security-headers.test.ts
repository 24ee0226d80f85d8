// Console/admin response headers (docs/security.md "Headers"): never framed, never cached,
// nosniff; HSTS only over TLS.
import { expect, test } from 'bun:test'
import { consoleSecurityHeaders } from '../../src/http/security-headers.ts'

test('over plain HTTP: the base headers, no HSTS', () => {
  const h = consoleSecurityHeaders(false)
  expect(h).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    'referrer-policy': 'same-origin',
  })
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(h['strict-transport-security']).toBeUndefined()
})

test('over TLS: the same headers plus HSTS for a year', () => {
  const plain = consoleSecurityHeaders(false)
  const tls = consoleSecurityHeaders(true)
  expect(tls).toMatchObject(plain)
  expect(tls['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  // the shared base is not changed by asking for the TLS set
  expect(consoleSecurityHeaders(false)['strict-transport-security']).toBeUndefined()
})
