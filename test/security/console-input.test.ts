// Table tests of docs/security.md "Input: one rule at every edge" over HTTP, on both backend pairs:
// NUL and lone surrogates refused at the edge of every console and admin input, overflowing
// cursors, non-object bodies, authentication before validation, one body limit with its 413 in each
// envelope, strict dates. Each refusal leaves the books as they were.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from '../console/helpers.ts'
import { expectRefusal, snapshot } from './hostile.ts'

const MAX = 64 * 1024
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

for (const backends of ALL_BACKENDS) {
  describe(`hostile console input on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let u: SignedIn
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
        ...CONSOLE_ENV,
        MAX_BODY_BYTES: String(MAX),
        SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-0123',
      })
      u = await signUp(gw)
    }, 60_000)
    afterAll(() => gw?.stop(), 60_000)

    const raw = (path: string, init: RequestInit = {}) =>
      u.fetch(path, {
        ...init,
        headers: { 'content-type': 'application/json', origin: u.base, ...(init.headers as Record<string, string>) },
      })

    test('NUL and lone surrogates in any console or admin input → 400 naming the input; nothing stored', async () => {
      const before = await snapshot(gw)
      const cases: [string, () => Promise<Response>][] = [
        ['DELETE /api/keys/a%00', () => u.del('/api/keys/a%00')],
        ['GET /api/logs?model=%00', () => u.get('/api/logs?model=%00')],
        ['GET /api/logs?keyId=a%00', () => u.get('/api/logs?keyId=a%00')],
        ['GET /api/logs/:id', () => u.get('/api/logs/req_%00')],
        ['GET /api/wallet/transactions/:id', () => u.get('/api/wallet/transactions/t%00')],
        ['GET /api/payments/sandbox/:id', () => u.get('/api/payments/sandbox/x%00')],
        [
          'register email',
          () => raw('/api/auth/register', { method: 'POST', body: '{"email":"a\\u0000@b.c","password":"long enough pw"}' }),
        ],
        ['login email', () => raw('/api/auth/login', { method: 'POST', body: '{"email":"a\\u0000@b.c","password":"long enough pw"}' })],
        ['key name NUL', () => raw('/api/keys', { method: 'POST', body: '{"name":"k\\u0000"}' })],
        ['key name lone high surrogate', () => raw('/api/keys', { method: 'POST', body: '{"name":"k\\ud800"}' })],
        ['key name lone low surrogate', () => raw('/api/keys', { method: 'POST', body: '{"name":"\\udc00k"}' })],
        ['member name NUL', () => raw('/api/keys', { method: 'POST', body: '{"na\\u0000me":"k"}' })],
        ['topup provider', () => raw('/api/wallet/topup', { method: 'POST', body: '{"amount":10,"provider":"sandbox\\u0000"}' })],
        ['admin user email', () => gw.request('/api/admin/users', { method: 'POST', headers: admin, body: '{"email":"x\\u0000@y.z"}' })],
        [
          'admin credit note',
          () => gw.request(`/api/admin/users/${u.id}/credits`, { method: 'POST', headers: admin, body: '{"amount":1,"note":"n\\u0000"}' }),
        ],
        [
          'admin credit user id',
          () => gw.request('/api/admin/users/u%00/credits', { method: 'POST', headers: admin, body: '{"amount":1}' }),
        ],
        ['admin key userId', () => gw.request('/api/admin/keys', { method: 'POST', headers: admin, body: '{"userId":"u\\u0000"}' })],
        ['admin key revoke id', () => gw.request('/api/admin/keys/k%00', { method: 'DELETE', headers: admin })],
        [
          'admin refund transaction id',
          () => gw.request('/api/admin/refunds', { method: 'POST', headers: admin, body: '{"transactionId":"t\\u0000"}' }),
        ],
      ]
      for (const [label, call] of cases) {
        const res = await call()
        expect(res.status, label).toBe(400)
        const body = await expectRefusal(res, '/api/', label)
        expect(body.error.code, label).toBe('BAD_REQUEST')
      }
      expect(await snapshot(gw)).toEqual(before)
    })

    test('a cursor that decodes but overflows is 400 on transactions, logs and keys; so is garbage', async () => {
      for (const at of ['9223372036854775807', '99999999999999999999', '253402300800000000']) {
        const cursor = Buffer.from(`${at}.x`).toString('base64url')
        for (const path of ['/api/wallet/transactions', '/api/logs', '/api/keys']) {
          const res = await u.get(`${path}?cursor=${cursor}`)
          expect(res.status, `${path} ${at}`).toBe(400)
          expect((await expectRefusal(res, path)).error.message).toContain('cursor')
        }
      }
      // The largest representable instant still pages (an empty page, not an error).
      const edge = Buffer.from('253402300799999999.x').toString('base64url')
      expect((await u.get(`/api/keys?cursor=${edge}`)).status).toBe(200)
    })

    test('POST /api/keys with a body of null, [], 1, "x", true → 422, 10,000-deep nesting and __proto__ → 400; no key made', async () => {
      const before = await snapshot(gw)
      for (const body of ['null', '[]', '1', '"x"', 'true']) {
        const res = await raw('/api/keys', { method: 'POST', body })
        expect(res.status, body.slice(0, 10)).toBe(422)
        expect((await expectRefusal(res, '/api/keys')).error.code).toBe('VALIDATION_FAILED')
      }
      // Too deep to walk safely, or a prototype-polluting member name: 400 naming it.
      for (const body of [
        '['.repeat(10_000) + ']'.repeat(10_000),
        '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{}}}',
      ]) {
        const res = await raw('/api/keys', { method: 'POST', body })
        expect(res.status).toBe(400)
        await expectRefusal(res, '/api/keys')
      }
      // An empty body is an empty object: a key with defaults.
      expect((await raw('/api/keys', { method: 'POST' })).status).toBe(201)
      expect((await snapshot(gw)).keys).not.toBe(before.keys)
    })

    test('authentication before validation: no session → 401 whatever the body, query or size', async () => {
      const anon = (path: string, init: RequestInit = {}) =>
        gw.request(path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } })
      const cases: [string, Promise<Response>][] = [
        ['topup invalid body', anon('/api/wallet/topup', { method: 'POST', body: '{"amount":"lots"}' })],
        ['topup not JSON', anon('/api/wallet/topup', { method: 'POST', body: '{' })],
        ['topup oversize', anon('/api/wallet/topup', { method: 'POST', body: 'x'.repeat(MAX + 1) })],
        ['keys NUL', anon('/api/keys', { method: 'POST', body: '{"name":"\\u0000"}' })],
        ['keys bad limit', anon('/api/keys?limit=abc')],
        ['logs bad cursor', anon('/api/logs?cursor=!!!')],
        ['transactions bad kind', anon('/api/wallet/transactions?kind=nope')],
        ['revoke NUL id', anon('/api/keys/%00', { method: 'DELETE' })],
        ['sandbox pay', anon('/api/payments/sandbox/x/pay', { method: 'POST', body: '[' })],
        ['admin invalid body', anon('/api/admin/keys', { method: 'POST', body: '{"userId":1}' })],
        ['admin not JSON', anon('/api/admin/users', { method: 'POST', body: '{' })],
        ['admin oversize', anon('/api/admin/users', { method: 'POST', body: 'x'.repeat(MAX + 1) })],
        [
          'admin wrong token',
          anon('/api/admin/users', { method: 'POST', body: '{', headers: { authorization: 'Bearer not-the-token-at-all' } }),
        ],
      ]
      for (const [label, res] of cases) {
        const r = await res
        expect(r.status, label).toBe(401)
        await expectRefusal(r, '/api/', label)
      }
    })

    test('one body limit: MAX_BODY_BYTES + 1 → 413 in each surface’s envelope with x-request-id, sent whole or chunked', async () => {
      const big = JSON.stringify({ pad: 'x'.repeat(MAX) })
      const funded = await gw.user(1)
      const cases: [string, string, Record<string, string>][] = [
        ['/api/keys', 'console', { cookie: u.cookie!, origin: u.base }],
        ['/api/auth/register', 'console', {}],
        ['/api/admin/users', 'admin', admin],
        ['/api/webhooks/sandbox', 'webhook', {}],
        ['/v1/chat/completions', 'chat', bearer(funded.key)],
        ['/v1/messages', 'messages', bearer(funded.key)],
        ['/v1/messages/count_tokens', 'messages', bearer(funded.key)],
        ['/v1/responses', 'responses', bearer(funded.key)],
      ]
      for (const [path, label, headers] of cases) {
        const whole = await u.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: big })
        expect(whole.status, `${label} whole`).toBe(413)
        await expectRefusal(whole, path, `${label} whole`)
        // Chunked, no Content-Length: cut off at the limit while reading.
        const stream = new ReadableStream({
          start(c) {
            for (let i = 0; i < 8; i++) c.enqueue(new TextEncoder().encode('x'.repeat(MAX / 4)))
            c.close()
          },
        })
        const chunked = await u.fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: stream,
          duplex: 'half',
        } as RequestInit)
        expect(chunked.status, `${label} chunked`).toBe(413)
        await expectRefusal(chunked, path, `${label} chunked`)
      }
      // Far beyond any limit (9 MiB): still our envelope, never Bun's bare 413.
      const huge = await u.fetch('/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(9 * 1024 * 1024),
      })
      expect(huge.status).toBe(413)
      expect((await expectRefusal(huge, '/api/auth/register')).error.code).toBe('PAYLOAD_TOO_LARGE')
    })

    test('expiresAt must be a real date: 2099-02-31 refused by the console and the admin API; 2099-02-28 stored as sent', async () => {
      for (const expiresAt of [
        '2099-02-31T00:00:00Z',
        '2099-13-01T00:00:00Z',
        '2099-04-31T00:00:00Z',
        '2099-02-28T24:00:00Z',
        '2099-02-28',
        'tomorrow',
      ]) {
        const res = await u.post('/api/keys', { expiresAt })
        expect(res.status, expiresAt).toBeGreaterThanOrEqual(400)
        expect(res.status, expiresAt).toBeLessThan(500)
        const viaAdmin = await gw.request('/api/admin/keys', {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ userId: u.id, expiresAt }),
        })
        expect(viaAdmin.status, expiresAt).toBe(400)
      }
      const ok = await json(u.post('/api/keys', { expiresAt: '2099-02-28T12:30:00Z' }))
      expect(ok.expiresAt).toBe('2099-02-28T12:30:00.000Z')
    })

    test('a JSON body sent as text/plain or a form → 415 in the console envelope, console and admin alike; nothing stored', async () => {
      const before = await snapshot(gw)
      const body = JSON.stringify({ amount: 5, note: 'as text' })
      for (const type of [
        'text/plain',
        'text/plain;charset=UTF-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        '',
      ]) {
        const headers: Record<string, string> = { authorization: admin.authorization }
        if (type) headers['content-type'] = type
        const viaAdmin = await gw.request(`/api/admin/users/${u.id}/credits`, { method: 'POST', headers, body })
        expect([type, viaAdmin.status, await viaAdmin.json()]).toEqual([
          type,
          415,
          { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json.' } },
        ])
        const viaConsole = await raw('/api/keys', { method: 'POST', headers: { 'content-type': type }, body: '{"name":"k"}' })
        expect([type, viaConsole.status]).toEqual([type, 415])
      }
      expect(await snapshot(gw)).toEqual(before)
      // JSON and JSON-based types pass.
      const ok = await gw.request(`/api/admin/users/${u.id}/credits`, { method: 'POST', headers: admin, body })
      expect(ok.status).toBe(200)
    })

    test('emails with invisible characters are refused where an account is made; compatibility forms are one address', async () => {
      const taken = `dave-${crypto.randomUUID().slice(0, 8)}@x.test`
      expect(
        (await raw('/api/auth/register', { method: 'POST', body: JSON.stringify({ email: taken, password: 'long enough pw' }) })).status,
      ).toBe(201)
      for (const email of [
        `${taken}\u200b`,
        taken.replace('@', '\u200d@'),
        taken.replace('dave', 'da\u00adve'),
        taken.replace('x.test', 'x\u2060.test'),
      ]) {
        const res = await raw('/api/auth/register', { method: 'POST', body: JSON.stringify({ email, password: 'long enough pw' }) })
        expect([email, res.status, (await res.json()).error.code]).toEqual([email, 422, 'VALIDATION_FAILED'])
        const viaAdmin = await gw.request('/api/admin/users', { method: 'POST', headers: admin, body: JSON.stringify({ email }) })
        expect([email, viaAdmin.status]).toEqual([email, 422])
      }
      // Full-width letters are the same mailbox: taken, and a sign-in with them works.
      const wide = taken.replace('dave', '\uff44\uff41\uff56\uff45')
      expect(
        (await raw('/api/auth/register', { method: 'POST', body: JSON.stringify({ email: wide, password: 'long enough pw' }) })).status,
      ).toBe(409)
      expect(
        (await raw('/api/auth/login', { method: 'POST', body: JSON.stringify({ email: wide, password: 'long enough pw' }) })).status,
      ).toBe(200)
    })

    test('the admin API refuses a serviceMode the console refuses: 422 naming it, nothing stored', async () => {
      const created = await gw.request('/api/admin/keys', {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ userId: u.id, serviceMode: 'turbo' }),
      })
      expect([created.status, (await created.json()).error.code]).toEqual([422, 'VALIDATION_FAILED'])
      const key = await json(gw.request('/api/admin/keys', { method: 'POST', headers: admin, body: JSON.stringify({ userId: u.id }) }))
      const patched = await gw.request(`/api/admin/keys/${key.id}`, {
        method: 'PATCH',
        headers: admin,
        body: JSON.stringify({ serviceMode: 'x'.repeat(50) }),
      })
      expect(patched.status).toBe(422)
      expect(
        (
          await gw.request(`/api/admin/keys/${key.id}`, {
            method: 'PATCH',
            headers: admin,
            body: JSON.stringify({ serviceMode: 'performance' }),
          })
        ).status,
      ).toBe(200)
      const console = await u.post('/api/keys', { serviceMode: 'turbo' })
      expect(console.status).toBe(422)
    })
  })
}
