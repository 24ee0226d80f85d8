// Who may call, and how much: API keys in both header forms (refused when missing, malformed,
// unknown, revoked or expired), 402 when the balance or the key's spend limit cannot cover the
// reservation, and the per-key rate window with its headers — a refused call reserves and bills
// nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, ALL_BACKENDS, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectChatError, postChat, reservedOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid, revoked or expired API key.' }

for (const backends of ALL_BACKENDS) {
  describe(`chat auth and limits on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      catalog.models.push({ ...catalog.models[0]!, id: 'acme/chat-2' })
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const call = (headers: Record<string, string>, body = chatBody()) =>
      gw.request('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

    /** A second key for an existing user, through the admin API. */
    async function extraKey(userId: string, patch: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
      const res = await gw.request('/api/admin/keys', { method: 'POST', headers: admin, body: JSON.stringify({ userId, ...patch }) })
      expect(res.status).toBe(200)
      return (await res.json()) as { id: string; key: string }
    }

    test('the key is accepted as Authorization: Bearer (any case) and as x-api-key', async () => {
      const u = await gw.user(1)
      for (const headers of [{ authorization: `Bearer ${u.key}` }, { authorization: `bearer ${u.key}` }, { 'x-api-key': u.key }] as Record<
        string,
        string
      >[]) {
        const res = await call(headers)
        expect(res.status).toBe(200)
        expect(((await res.json()) as any).svc.gateway).toBe('gw-a')
      }
    })

    test('401 UNAUTHORIZED for a missing, malformed, unknown, revoked or expired key — before the body is read, with no upstream call and no log row', async () => {
      const u = await gw.user(1)
      const expired = await gw.user(1, { expiresAt: new Date(Date.now() - 60_000).toISOString() })
      const revoked = await gw.user(1)
      const revokedDel = await gw.request(`/api/admin/keys/${revoked.keyId}`, { method: 'DELETE', headers: admin })
      expect(revokedDel.status).toBe(200)
      const refused: Record<string, string>[] = [
        {},
        { authorization: 'Basic abc' },
        { authorization: 'Bearer' },
        { authorization: 'Bearer ' },
        { authorization: 'Bearer not-a-key' },
        { authorization: u.key },
        { 'x-api-key': 'not-a-key' },
        { authorization: 'Bearer sk-doesnotexist0000000000000000000000000000' },
        { authorization: `Bearer ${u.key}x` },
        { authorization: `Bearer ${u.key.slice(0, -1)}` },
        { authorization: `Bearer ${expired.key}` },
        { 'x-api-key': expired.key },
        { authorization: `Bearer ${revoked.key}` },
        { 'x-api-key': revoked.key },
      ]
      const seen = up.seen.length
      for (const headers of refused) {
        for (const body of [chatBody(), '{"model": ', chatBody({ temperature: 9 })]) {
          const res = await call(headers, body)
          expect(res.status).toBe(401)
          expect(res.headers.get('x-request-id')).toMatch(/^req_/)
          expect((await res.json()) as any).toEqual({ status: 'error', error: UNAUTHORIZED })
        }
      }
      expect(up.seen.length).toBe(seen)
      await gw.settled()
      const logs = await gw.runtime.deps.db.query.requestLogs.findMany({
        where: (l, { inArray }) => inArray(l.userId, [u.userId, expired.userId, revoked.userId]),
      })
      expect(logs).toEqual([])
      expect(await gw.books(expired.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
    })

    test('a key expiring in the future works until then', async () => {
      const u = await gw.user(1, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
      expect((await postChat(gw, u.key)).status).toBe(200)
    })

    test('a revoked key is refused at once on the instance that revoked it, even while it is cached as valid', async () => {
      const u = await gw.user(1)
      const second = await extraKey(u.userId)
      expect((await postChat(gw, u.key)).status).toBe(200) // now in the instance's key cache
      expect((await postChat(gw, second.key)).status).toBe(200)
      const del = await gw.request(`/api/admin/keys/${u.keyId}`, { method: 'DELETE', headers: admin })
      expect(await del.json()).toEqual({ id: u.keyId, revoked: true })
      const res = await postChat(gw, u.key)
      expect(((await expectChatError(res, 401, 'UNAUTHORIZED')) as any).message).toBe(UNAUTHORIZED.message)
      const viaHeader = await call({ 'x-api-key': u.key })
      expect(viaHeader.status).toBe(401)
      // Only that key: the user's other key still works.
      expect((await postChat(gw, second.key)).status).toBe(200)
    })

    test('402 PAYMENT_REQUIRED when the balance cannot cover the estimate; the message names the balance; nothing reserved', async () => {
      for (const usd of [0, 0.000001]) {
        const u = await gw.user(usd)
        const seen = up.seen.length
        const error = await expectChatError(await postChat(gw, u.key), 402, 'PAYMENT_REQUIRED')
        expect(error.message).toContain('balance')
        expect(error.message).not.toContain('limit')
        expect(up.seen.length).toBe(seen)
        expect(await reservedOf(gw, u.userId)).toBe(0n)
        await gw.settled()
        const micros = BigInt(Math.round(usd * 1e6))
        expect(await gw.books(u.userId)).toEqual({ balance: micros, ledgerSum: micros })
      }
    })

    test('402 PAYMENT_REQUIRED when the key’s spend limit cannot cover it; the message names the key’s limit; the user’s other key still works', async () => {
      const u = await gw.user(1, { limit: 0.000001 })
      const seen = up.seen.length
      const error = await expectChatError(await postChat(gw, u.key), 402, 'PAYMENT_REQUIRED')
      expect(error.message).toContain('limit')
      expect(error.message).toContain('key')
      expect(error.message).not.toContain('balance')
      expect(up.seen.length).toBe(seen)
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      const other = await extraKey(u.userId)
      expect((await postChat(gw, other.key)).status).toBe(200)
      await gw.settled()
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(1_000_000n - 221n)
      expect(books.ledgerSum).toBe(books.balance)
    })

    test('the key’s spend limit counts what the key has spent: calls are served until the next reservation would pass it', async () => {
      // Each call reserves 5*0.15 + 100*0.6 → 61 micro-USD and is billed 221 (json-text.json usage).
      // Limit 500: 0+61 ✓ (spent 221), 221+61 ✓ (spent 442), 442+61 = 503 > 500 ✗.
      const u = await gw.user(1, { limit: 0.0005 })
      for (const expected of [200, 200]) {
        expect((await postChat(gw, u.key, { max_tokens: 100 })).status).toBe(expected)
        await gw.settled()
      }
      const error = await expectChatError(await postChat(gw, u.key, { max_tokens: 100 }), 402, 'PAYMENT_REQUIRED')
      expect(error.message).toContain('limit')
      await gw.settled()
      expect((await gw.books(u.userId)).balance).toBe(1_000_000n - 442n)
    })

    test('429 RATE_LIMITED after rpm requests, with Retry-After and RateLimit-*; the rejected call reaches no upstream and reserves nothing', async () => {
      const u = await gw.user(1, { rpm: 2 })
      const first = await postChat(gw, u.key)
      expect(first.status).toBe(200)
      expect(first.headers.get('ratelimit-limit')).toBe('2')
      expect(first.headers.get('ratelimit-remaining')).toBe('1')
      const second = await postChat(gw, u.key)
      expect(second.status).toBe(200)
      expect(second.headers.get('ratelimit-remaining')).toBe('0')
      for (const r of [first, second]) {
        const reset = Number(r.headers.get('ratelimit-reset'))
        expect(reset).toBeGreaterThanOrEqual(1)
        expect(reset).toBeLessThanOrEqual(60)
        expect(r.headers.get('retry-after')).toBeNull()
      }
      await gw.settled()
      const before = await gw.books(u.userId)
      const seen = up.seen.length
      for (const body of [{}, { stream: true }]) {
        const limited = await postChat(gw, u.key, body)
        const error = await expectChatError(limited, 429, 'RATE_LIMITED')
        expect(error.message).toContain('2 requests per minute')
        const retry = Number(limited.headers.get('retry-after'))
        expect(retry).toBeGreaterThanOrEqual(1)
        expect(retry).toBeLessThanOrEqual(60)
        expect(limited.headers.get('ratelimit-limit')).toBe('2')
        expect(limited.headers.get('ratelimit-remaining')).toBe('0')
        expect(Number(limited.headers.get('ratelimit-reset'))).toBe(retry)
        expect(await reservedOf(gw, u.userId)).toBe(0n)
      }
      expect(up.seen.length).toBe(seen)
      await gw.settled()
      expect(await gw.books(u.userId)).toEqual(before)
    })

    test('the window is per key and counts every model together', async () => {
      const u = await gw.user(1, { rpm: 2 })
      expect((await postChat(gw, u.key, { model: 'acme/chat-1' })).status).toBe(200)
      expect((await postChat(gw, u.key, { model: 'acme/chat-2' })).status).toBe(200)
      await expectChatError(await postChat(gw, u.key, { model: 'acme/chat-2' }), 429, 'RATE_LIMITED')
      await expectChatError(await postChat(gw, u.key, { model: 'acme/chat-1' }), 429, 'RATE_LIMITED')
      const other = await extraKey(u.userId, { rpm: 2 })
      const res = await postChat(gw, other.key)
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-remaining')).toBe('1')
    })

    test('a success carries x-request-id, x-model and RateLimit-*; a stream carries x-request-id and RateLimit-*', async () => {
      const u = await gw.user(1, { rpm: 10 })
      const res = await postChat(gw, u.key)
      expect(res.status).toBe(200)
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]+$/)
      expect(res.headers.get('x-model')).toBe('acme/chat-1')
      expect(res.headers.get('ratelimit-limit')).toBe('10')
      expect(res.headers.get('ratelimit-remaining')).toBe('9')
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1)
      up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse') })
      const stream = await postChat(gw, u.key, { stream: true })
      expect(stream.status).toBe(200)
      expect(stream.headers.get('content-type')).toContain('text/event-stream')
      expect(stream.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]+$/)
      expect(stream.headers.get('x-request-id')).not.toBe(res.headers.get('x-request-id'))
      expect(stream.headers.get('ratelimit-limit')).toBe('10')
      expect(stream.headers.get('ratelimit-remaining')).toBe('8')
      await stream.text()
    })
  })
}
