// The admin API (docs/api.md "Admin API"): users, credits (idempotent with Idempotency-Key),
// keys that work on /v1 with their rpm, limit and expiry, revocation; Bearer $ADMIN_TOKEN
// required, and the routes absent when ADMIN_TOKEN is unset.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { apiKeys, ledgerEntries } from '../../src/db/schema/index.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectChatError, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

const admin = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${ADMIN_TOKEN}`,
  'content-type': 'application/json',
  ...extra,
})

/** Every admin route, with a body that would be valid. */
const ROUTES = (userId: string, keyId: string): [string, string, unknown][] => [
  ['POST', '/api/admin/users', { email: 'someone@example.com' }],
  ['POST', `/api/admin/users/${userId}/credits`, { amount: 5 }],
  ['POST', '/api/admin/keys', { userId }],
  ['DELETE', `/api/admin/keys/${keyId}`, undefined],
  ['GET', '/api/admin/users', undefined],
  ['GET', `/api/admin/users/${userId}/keys`, undefined],
  ['POST', `/api/admin/users/${userId}/disable`, undefined],
  ['POST', `/api/admin/users/${userId}/enable`, undefined],
  ['POST', '/api/admin/catalog/reload', undefined],
  ['GET', '/api/admin/catalog', undefined],
]

for (const backends of ALL_BACKENDS) {
  describe(`admin API on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = admin()) =>
      gw.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const newUser = async (email = `${crypto.randomUUID()}@example.com`) =>
      (await (await send('POST', '/api/admin/users', { email })).json()) as { id: string; email: string }
    const credit = (userId: string, body: unknown, headers: Record<string, string> = {}) =>
      send('POST', `/api/admin/users/${userId}/credits`, body, admin(headers))
    const newKey = async (body: Record<string, unknown>) => {
      const res = await send('POST', '/api/admin/keys', body)
      expect(res.status).toBe(200)
      return (await res.json()) as { id: string; key: string }
    }
    async function expectConsoleError(res: Response, status: number, code: string) {
      expect(res.status).toBe(status)
      const body = (await res.json()) as any
      expect(Object.keys(body)).toEqual(['error'])
      expect(body.error.code).toBe(code)
      expect(typeof body.error.message).toBe('string')
    }

    test('POST /users creates a user with a normalised email; the same email again → 409 CONFLICT', async () => {
      const email = `Admin.${crypto.randomUUID()}@Example.COM`
      const res = await send('POST', '/api/admin/users', { email, password: 'correct horse battery' })
      expect(res.status).toBe(200)
      const user = (await res.json()) as any
      expect(Object.keys(user).sort()).toEqual(['email', 'id'])
      expect(user.id).toMatch(/^usr_/)
      expect(user.email).toBe(email.toLowerCase())
      await expectConsoleError(await send('POST', '/api/admin/users', { email: email.toLowerCase() }), 409, 'CONFLICT')
      await expectConsoleError(await send('POST', '/api/admin/users', { email: email.toUpperCase() }), 409, 'CONFLICT')
      await expectConsoleError(await send('POST', '/api/admin/users', { email: 'not-an-email' }), 422, 'VALIDATION_FAILED')
      await expectConsoleError(await send('POST', '/api/admin/users', { email: `b-${email}`, password: 'short' }), 422, 'VALIDATION_FAILED')
      await expectConsoleError(await send('POST', '/api/admin/users', {}), 422, 'VALIDATION_FAILED')
      // A new user starts at zero.
      expect(await gw.books(user.id)).toEqual({ balance: 0n, ledgerSum: 0n })
    })

    test('credits move the balance both ways and answer it in USD; each is a completed ledger entry', async () => {
      const user = await newUser()
      const r1 = await credit(user.id, { amount: 12.5, note: 'welcome' })
      expect(r1.status).toBe(200)
      expect(await r1.json()).toEqual({ balance: 12.5 })
      expect(await (await credit(user.id, { amount: -2.25 })).json()).toEqual({ balance: 10.25 })
      expect(await (await credit(user.id, { amount: 0.000001 })).json()).toEqual({ balance: 10.250001 })
      expect(await gw.books(user.id)).toEqual({ balance: 10_250_001n, ledgerSum: 10_250_001n })
      const entries = await gw.runtime.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))
      expect(entries.map((e) => e.amountMicros).sort()).toEqual([-2_250_000n, 1n, 12_500_000n].sort())
      expect(entries.every((e) => e.status === 'completed' && e.kind === 'adjustment')).toBe(true)
      expect(entries.find((e) => e.amountMicros === 12_500_000n)!.meta).toEqual({ note: 'welcome' })
    })

    test('credits refuse a zero, out-of-range, too precise or non-numeric amount, and an unknown user', async () => {
      const user = await newUser()
      for (const amount of [0, 10_000.01, -10_000.01, 0.0000001])
        await expectConsoleError(await credit(user.id, { amount }), 400, 'BAD_REQUEST')
      for (const body of [{ amount: 'ten' }, {}, { amount: 1, note: 'x'.repeat(501) }])
        await expectConsoleError(await credit(user.id, body), 422, 'VALIDATION_FAILED')
      await expectConsoleError(await credit('usr_nobody', { amount: 1 }), 404, 'NOT_FOUND')
      expect(await gw.books(user.id)).toEqual({ balance: 0n, ledgerSum: 0n })
    })

    test('a retry with the same Idempotency-Key and body replays the first answer and moves nothing, also under concurrency', async () => {
      const user = await newUser()
      const first = await credit(user.id, { amount: 7, note: 'grant' }, { 'idempotency-key': 'grant-1' })
      expect(first.status).toBe(200)
      expect(first.headers.get('idempotent-replayed')).toBeNull()
      expect(await first.json()).toEqual({ balance: 7 })
      // Money moves in between: the replay still answers the first answer, not the balance now.
      expect(await (await credit(user.id, { amount: 1 })).json()).toEqual({ balance: 8 })
      const again = await credit(user.id, { amount: 7, note: 'grant' }, { 'idempotency-key': 'grant-1' })
      expect(again.status).toBe(200)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(await again.json()).toEqual({ balance: 7 })
      expect(await gw.books(user.id)).toEqual({ balance: 8_000_000n, ledgerSum: 8_000_000n })
      // The same key for another user is another movement.
      const other = await newUser()
      expect(await (await credit(other.id, { amount: 1 }, { 'idempotency-key': 'grant-1' })).json()).toEqual({ balance: 1 })
      // Ten concurrent sends of one request: one moves money, every one answers its answer.
      const answers = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await credit(user.id, { amount: 3 }, { 'idempotency-key': 'grant-2' })
          return { status: res.status, body: await res.json() }
        }),
      )
      expect(answers).toEqual(Array.from({ length: 10 }, () => ({ status: 200, body: { balance: 11 } })))
      expect(await gw.books(user.id)).toEqual({ balance: 11_000_000n, ledgerSum: 11_000_000n })
      const grants = await gw.runtime.deps.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'adjustment')))
      expect(grants).toHaveLength(3)
    })

    test('the same Idempotency-Key with another body → 409 saying so; nothing moves', async () => {
      const user = await newUser()
      expect((await credit(user.id, { amount: 7, note: 'grant' }, { 'idempotency-key': 'k' })).status).toBe(200)
      for (const body of [{ amount: 8, note: 'grant' }, { amount: 7 }, { amount: 7, note: 'other' }]) {
        const res = await credit(user.id, body, { 'idempotency-key': 'k' })
        expect(res.status).toBe(409)
        const err = ((await res.json()) as any).error
        expect(err.code).toBe('CONFLICT')
        expect(err.message).toContain('already used with a different body')
      }
      await expectConsoleError(await credit(user.id, { amount: 1 }, { 'idempotency-key': 'k'.repeat(256) }), 400, 'BAD_REQUEST')
      expect(await gw.books(user.id)).toEqual({ balance: 7_000_000n, ledgerSum: 7_000_000n })
    })

    test('credits reach the hot balance at once: a call refused for balance is served after a credit', async () => {
      const user = await newUser()
      const { key } = await newKey({ userId: user.id })
      await expectChatError(await postChat(gw, key), 402, 'PAYMENT_REQUIRED')
      expect(await (await credit(user.id, { amount: 1 })).json()).toEqual({ balance: 1 })
      expect((await postChat(gw, key)).status).toBe(200)
      await gw.settled()
      // 1 - 0.000221 (the call) - 0.999: less than the next call's reservation (2459 micro-USD).
      expect(await (await credit(user.id, { amount: -0.999 })).json()).toEqual({ balance: 0.000779 })
      await expectChatError(await postChat(gw, key), 402, 'PAYMENT_REQUIRED')
    })

    test('POST /keys returns an sk- key that works on /v1 at once, with the given rpm, limit and expiry', async () => {
      const user = await newUser()
      await credit(user.id, { amount: 1 })
      const issued = await send('POST', '/api/admin/keys', { userId: user.id, name: 'ci' })
      expect(issued.status).toBe(200)
      const key = (await issued.json()) as any
      expect(Object.keys(key).sort()).toEqual(['id', 'key'])
      expect(key.key).toMatch(/^sk-[0-9A-Za-z]{40}$/)
      expect(key.id).toMatch(/^key_/)
      const ok = await postChat(gw, key.key)
      expect(ok.status).toBe(200)
      expect(ok.headers.get('ratelimit-limit')).toBe('600') // DEFAULT_RPM
      expect((await gw.request('/v1/models', { headers: { 'x-api-key': key.key } })).status).toBe(200)

      const slow = await newKey({ userId: user.id, rpm: 1 })
      expect((await postChat(gw, slow.key)).headers.get('ratelimit-limit')).toBe('1')
      await expectChatError(await postChat(gw, slow.key), 429, 'RATE_LIMITED')

      const capped = await newKey({ userId: user.id, limit: 0.000001 })
      expect((await expectChatError(await postChat(gw, capped.key), 402, 'PAYMENT_REQUIRED')).message).toContain('limit')

      // A past expiresAt is refused at creation (below): this key's expiry is moved into the past instead.
      const expired = await newKey({ userId: user.id, expiresAt: new Date(Date.now() + 60_000).toISOString() })
      await gw.runtime.deps.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(apiKeys.id, expired.id))
      gw.runtime.deps.auth.invalidate(expired.id)
      await expectChatError(await postChat(gw, expired.key), 401, 'UNAUTHORIZED')
      const later = await newKey({ userId: user.id, expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
      expect((await postChat(gw, later.key)).status).toBe(200)
    })

    test('POST /keys refuses an unknown user and invalid settings', async () => {
      const user = await newUser()
      await expectConsoleError(await send('POST', '/api/admin/keys', { userId: 'usr_nobody' }), 404, 'NOT_FOUND')
      await expectConsoleError(await send('POST', '/api/admin/keys', { userId: user.id, expiresAt: 'next tuesday' }), 400, 'BAD_REQUEST')
      // A key that would be dead on arrival: 422 naming the field, and no key is made.
      for (const expiresAt of [new Date(Date.now() - 1_000).toISOString(), '2020-01-01T00:00:00Z']) {
        const past = await send('POST', '/api/admin/keys', { userId: user.id, expiresAt })
        expect(past.status).toBe(422)
        expect(await past.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'expiresAt: must be in the future.' } })
      }
      expect((await (await send('GET', `/api/admin/users/${user.id}/keys`)).json()).items).toEqual([])
      for (const body of [
        {},
        { userId: user.id, rpm: 0 },
        { userId: user.id, rpm: 1.5 },
        { userId: user.id, limit: -1 },
        { userId: user.id, name: 'x'.repeat(101) },
      ])
        await expectConsoleError(await send('POST', '/api/admin/keys', body), 422, 'VALIDATION_FAILED')
    })

    test('DELETE /keys/:id revokes: the key is refused at once, on chat and models; an unknown id → 404', async () => {
      const user = await newUser()
      await credit(user.id, { amount: 1 })
      const { id, key } = await newKey({ userId: user.id })
      expect((await postChat(gw, key)).status).toBe(200)
      const del = await send('DELETE', `/api/admin/keys/${id}`)
      expect(del.status).toBe(200)
      expect(await del.json()).toEqual({ id, revoked: true })
      await expectChatError(await postChat(gw, key), 401, 'UNAUTHORIZED')
      await expectChatError(await gw.request('/v1/models', { headers: { authorization: `Bearer ${key}` } }), 401, 'UNAUTHORIZED')
      await expectConsoleError(await send('DELETE', '/api/admin/keys/key_nobody'), 404, 'NOT_FOUND')
    })

    test('a wrong or missing admin token → 401 on every route, before the body is looked at; nothing changes', async () => {
      const user = await newUser()
      const { id, key } = await newKey({ userId: user.id })
      const wrong: Record<string, string>[] = [
        { 'content-type': 'application/json' },
        { 'content-type': 'application/json', authorization: 'Bearer wrong-token-wrong-token' },
        { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}x` },
        { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` },
        { 'content-type': 'application/json', authorization: ADMIN_TOKEN },
        { 'content-type': 'application/json', authorization: `Basic ${ADMIN_TOKEN}` },
        { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        { 'content-type': 'application/json', 'x-api-key': ADMIN_TOKEN },
      ]
      for (const headers of wrong) {
        for (const [method, path, body] of ROUTES(user.id, id)) {
          await expectConsoleError(await send(method, path, body, headers), 401, 'UNAUTHORIZED')
          // Even an invalid body is refused for the token first.
          if (method === 'POST') await expectConsoleError(await send(method, path, { nonsense: true }, headers), 401, 'UNAUTHORIZED')
        }
      }
      expect(await gw.books(user.id)).toEqual({ balance: 0n, ledgerSum: 0n })
      // The key was not revoked.
      await expectChatError(await postChat(gw, key), 402, 'PAYMENT_REQUIRED')
    })
  })

  describe(`admin API without ADMIN_TOKEN on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), { ADMIN_TOKEN: '' })
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
    })

    test('every admin route answers 404, with or without a token', async () => {
      const u = await gw.user(1)
      for (const headers of [admin(), { 'content-type': 'application/json' }]) {
        for (const [method, path, body] of ROUTES(u.userId, u.keyId)) {
          const res = await gw.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
          expect(res.status).toBe(404)
          expect(((await res.json()) as any).error.code).toBe('NOT_FOUND')
        }
      }
      // Nothing happened: no credit, and the key was not revoked.
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
      expect((await gw.request('/v1/models', { headers: { authorization: `Bearer ${u.key}` } })).status).toBe(200)
    })
  })
}
