// Who is calling, as a table: the client IP and TLS behind trusted proxies (docs/security.md "Limits").
import { describe, expect, test } from 'bun:test'
import { clientInfo } from '../../src/http/client.ts'
import { ipMatcher } from '../../src/lib/ip.ts'

describe('clientInfo', () => {
  const trusted = ipMatcher(['127.0.0.1', '10.0.0.0/8'])
  const url = new URL('http://gw.example/api/x')
  const info = (peer: string | undefined, headers: Record<string, string> = {}) => clientInfo(url, new Headers(headers), peer, trusted)

  test.each([
    ['untrusted peer: its own address, whatever it claims', '203.0.113.9', { 'x-forwarded-for': '1.1.1.1' }, '203.0.113.9'],
    ['mapped IPv4 peer is spelled as IPv4', '::ffff:203.0.113.9', {}, '203.0.113.9'],
    ['trusted peer without the header: the peer', '127.0.0.1', {}, '127.0.0.1'],
    ['trusted peer: the right-most untrusted hop', '127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4, 10.1.1.1' }, '198.51.100.4'],
    ['every hop trusted: the left-most', '127.0.0.1', { 'x-forwarded-for': '10.2.2.2, 10.1.1.1' }, '10.2.2.2'],
    ['no socket (in-process): one shared bucket', undefined, { 'x-forwarded-for': '1.1.1.1' }, 'unknown'],
  ] as const)('%s', (_, peer, headers, ip) => {
    expect(info(peer, headers).ip).toBe(ip)
  })

  test('https: the URL, or X-Forwarded-Proto from a trusted proxy only, read at the client hop', () => {
    expect(clientInfo(new URL('https://gw.example/'), new Headers(), '203.0.113.9', trusted).https).toBe(true)
    expect(info('127.0.0.1', { 'x-forwarded-proto': 'https' }).https).toBe(true)
    // Without X-Forwarded-For our proxy's own (right-most) value counts; a prepended one does not.
    expect(info('127.0.0.1', { 'x-forwarded-proto': 'HTTPS, http' }).https).toBe(false)
    expect(info('127.0.0.1', { 'x-forwarded-proto': 'http, https' }).https).toBe(true)
    expect(info('203.0.113.9', { 'x-forwarded-proto': 'https' }).https).toBe(false)
    // The client forges both headers over plain http: the edge appends its address and "http".
    expect(info('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4', 'x-forwarded-proto': 'https, http' }).https).toBe(false)
    // TLS at the edge, a second trusted proxy inside: the edge's "https" stands at the client's hop.
    expect(info('127.0.0.1', { 'x-forwarded-for': '198.51.100.4, 10.1.1.1', 'x-forwarded-proto': 'https, http' }).https).toBe(true)
    expect(info('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4, 10.1.1.1', 'x-forwarded-proto': 'https, http' }).https).toBe(true)
    // A forged X-Forwarded-For alone cannot shift the reading onto a forged scheme.
    expect(info('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4', 'x-forwarded-proto': 'http' }).https).toBe(false)
  })
})
