// The console's pure pieces, as tables: client IP and TLS behind proxies, the cross-site rule,
// the cursor codec, the top-up policy, Stripe event mapping and the sandbox signature.
import { describe, expect, test } from 'bun:test'
import type Stripe from 'stripe'
import { clientInfo } from '../../src/console/http/client.ts'
import { decodeCursor, encodeCursor } from '../../src/console/http/pagination.ts'
import { isCrossSite } from '../../src/console/http/same-origin.ts'
import { sandboxProvider, signSandboxEvent } from '../../src/console/payments/sandbox.ts'
import { checkoutAction } from '../../src/console/payments/stripe.ts'
import { policyAmount, topupBounds } from '../../src/console/topup/service.ts'
import { topupEvent } from '../../src/console/webhooks/service.ts'
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

  test('https: the URL, or X-Forwarded-Proto from a trusted proxy only, read at the client hop (issue 8)', () => {
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

describe('cursor', () => {
  test('round-trips and is opaque', () => {
    const c = { at: '1795400201946996', id: 'txn_u_req_ABC-123_x' }
    const text = encodeCursor(c)
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(text)).toEqual(c)
    expect(decodeCursor(undefined)).toBeUndefined()
    expect(decodeCursor('')).toBeUndefined()
  })

  test.each([
    'bm9wZQ',
    Buffer.from('12.').toString('base64url'),
    Buffer.from('x.id').toString('base64url'),
    Buffer.from("1.a' or 1=1").toString('base64url'),
    '%%%',
  ])('refuses %p with 400', (text) => {
    expect(() => decodeCursor(text)).toThrow('cursor is not a cursor this API returned.')
  })
})

describe('top-up policy', () => {
  const bounds = topupBounds({ topupMinUsd: 5, topupMaxUsd: 500 })
  test.each([
    [5, 5_000_000n],
    [500, 500_000_000n],
    [25.5, 25_500_000n],
    [0.1 + 0.2 + 9.7, 10_000_000n],
    [4.99, undefined],
    [500.01, undefined],
    [10.001, undefined],
    [-5, undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
  ])('%p USD', (usd, micros) => {
    expect(policyAmount(usd, bounds)).toBe(micros)
  })

  test('the technical maximum of 10,000 USD holds whatever the policy', () => {
    expect(topupBounds({ topupMinUsd: 1, topupMaxUsd: 10_000 }).max).toBe(10_000_000_000n)
    expect(policyAmount(10_000.01, topupBounds({ topupMinUsd: 1, topupMaxUsd: 10_000 }))).toBeUndefined()
  })
})

describe('Stripe events → top-up actions', () => {
  const event = (type: string, session: Partial<Stripe.Checkout.Session>) =>
    ({
      id: 'evt_1',
      type,
      data: {
        object: {
          id: 'cs_1',
          metadata: { transactionId: 'txn_1' },
          amount_total: 1000,
          currency: 'usd',
          payment_status: 'paid',
          ...session,
        },
      },
    }) as unknown as Stripe.Event

  test.each([
    ['checkout.session.completed', {}, { kind: 'paid', transactionId: 'txn_1', sessionId: 'cs_1', amountCents: 1000, currency: 'usd' }],
    [
      'checkout.session.async_payment_succeeded',
      {},
      { kind: 'paid', transactionId: 'txn_1', sessionId: 'cs_1', amountCents: 1000, currency: 'usd' },
    ],
    ['checkout.session.completed', { payment_status: 'unpaid' }, { kind: 'ignored', transactionId: 'txn_1', reason: 'payment unpaid' }],
    [
      'checkout.session.completed',
      { payment_status: 'no_payment_required' },
      { kind: 'ignored', transactionId: 'txn_1', reason: 'payment no_payment_required' },
    ],
    ['checkout.session.expired', {}, { kind: 'failed', transactionId: 'txn_1', sessionId: 'cs_1', reason: 'checkout expired' }],
    ['checkout.session.async_payment_failed', {}, { kind: 'failed', transactionId: 'txn_1', sessionId: 'cs_1', reason: 'payment failed' }],
    [
      'checkout.session.completed',
      { metadata: {}, client_reference_id: 'txn_2' },
      { kind: 'paid', transactionId: 'txn_2', sessionId: 'cs_1', amountCents: 1000, currency: 'usd' },
    ],
    ['payment_intent.succeeded', {}, { kind: 'ignored', transactionId: null, reason: 'not a checkout event' }],
  ] as const)('%s %p', (type, session, action) => {
    expect(checkoutAction(event(type, session as Partial<Stripe.Checkout.Session>))).toEqual(action as never)
  })

  test('cents become micro-USD; a non-integer amount can never match', () => {
    const paid = (amountCents: number) =>
      topupEvent('stripe', {
        id: 'e',
        type: 't',
        action: { kind: 'paid', transactionId: 'x', sessionId: 's', amountCents, currency: 'usd' },
      }).action
    expect(paid(2550)).toMatchObject({ paidMicros: 25_500_000n })
    expect(paid(10.5)).toMatchObject({ paidMicros: -1n })
    expect(paid(Number.NaN)).toMatchObject({ paidMicros: -1n })
  })
})

describe('sandbox signature', () => {
  const provider = sandboxProvider({ secret: 's3cret' })
  const body = JSON.stringify({ id: 'sbx_evt_1', type: 'payment.succeeded', transactionId: 'txn_1', amountCents: 500, currency: 'usd' })
  const verify = (sig: string, raw = body) => provider.verifyWebhook(raw, new Headers({ 'x-sandbox-signature': sig }))

  test('a fresh signature by the secret verifies', async () => {
    expect(await verify(signSandboxEvent('s3cret', body))).toEqual({
      id: 'sbx_evt_1',
      type: 'payment.succeeded',
      action: { kind: 'paid', transactionId: 'txn_1', sessionId: 'sbx_txn_1', amountCents: 500, currency: 'usd' },
    })
  })

  test.each([
    ['another secret', () => signSandboxEvent('other', body)],
    ['stale', () => signSandboxEvent('s3cret', body, Math.floor(Date.now() / 1000) - 301)],
    ['from the future', () => signSandboxEvent('s3cret', body, Math.floor(Date.now() / 1000) + 301)],
    ['missing', () => ''],
    ['v1 truncated', () => signSandboxEvent('s3cret', body).slice(0, -2)],
  ])('refuses %s', async (_, sig) => {
    await expect(verify(sig())).rejects.toThrow()
  })

  test('refuses a body other than the signed one', async () => {
    await expect(verify(signSandboxEvent('s3cret', body), body.replace('500', '50000'))).rejects.toThrow('bad signature')
  })
})
