// Everything a chat call can be refused for, in the chat envelope, and that a refusal changes
// nothing: no upstream call, no reservation, no charge.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ALL_BACKENDS, ADMIN_TOKEN, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

for (const backends of ALL_BACKENDS) {
  describe(`chat refusals on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      catalog.models.push(
        { ...catalog.models[0]!, id: 'acme/old', deprecated: true },
        { ...catalog.models[0]!, id: 'acme/unpriced', pricing: { input: null, output: null } },
      )
      gw = await startTestGateway(backends, catalog, { MAX_BODY_BYTES: '2048' })
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const post = (key: string, body: string | Record<string, unknown>) =>
      gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: typeof body === 'string' ? body : chatBody(body) })

    async function expectUntouched(u: { userId: string }, seenBefore: number) {
      expect(up.seen.length).toBe(seenBefore)
      const acct = await gw.runtime.deps.store.account(u.userId)
      expect(acct?.reservedMicros ?? 0n).toBe(0n)
      await gw.settled()
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(1_000_000n)
      expect(books.ledgerSum).toBe(books.balance)
    }

    const invalid: [string, Record<string, unknown>, string][] = [
      ['temperature above 2', { temperature: 2.5 }, 'temperature'],
      ['temperature below 0', { temperature: -0.1 }, 'temperature'],
      ['top_p above 1', { top_p: 1.01 }, 'top_p'],
      ['n of 0', { n: 0 }, 'n'],
      ['n of 9', { n: 9 }, 'n'],
      ['n not an integer', { n: 1.5 }, 'n'],
      ['presence_penalty below -2', { presence_penalty: -3 }, 'presence_penalty'],
      ['frequency_penalty above 2', { frequency_penalty: 2.1 }, 'frequency_penalty'],
      ['max_tokens of 0', { max_tokens: 0 }, 'max_tokens'],
      ['max_tokens as text', { max_tokens: '10' }, 'max_tokens'],
      ['max_completion_tokens negative', { max_completion_tokens: -1 }, 'max_completion_tokens'],
      ['empty messages', { messages: [] }, 'messages'],
      ['unknown role', { messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
      ['content of the wrong type', { messages: [{ role: 'user', content: 42 }] }, 'messages[0].content'],
      ['stream not a boolean', { stream: 'yes' }, 'stream'],
      ['missing model', { model: undefined }, 'model'],
      ['seed not an integer', { seed: 1.2 }, 'seed'],
    ]
    for (const [name, patch, field] of invalid) {
      test(`422 VALIDATION_FAILED naming the field: ${name}`, async () => {
        const u = await gw.user(1)
        const seen = up.seen.length
        const res = await post(u.key, patch)
        expect(res.status).toBe(422)
        const body = (await res.json()) as any
        expect(body.status).toBe('error')
        expect(body.error.code).toBe('VALIDATION_FAILED')
        expect(body.error.message.startsWith(`${field}:`)).toBe(true)
        expect(res.headers.get('x-request-id')).toMatch(/^req_/)
        await expectUntouched(u, seen)
      })
    }

    test('invalid JSON → 400 BAD_REQUEST; oversized body → 413', async () => {
      const u = await gw.user(1)
      const seen = up.seen.length
      const bad = await post(u.key, '{"model": ')
      expect(bad.status).toBe(400)
      expect(((await bad.json()) as any).error.code).toBe('BAD_REQUEST')
      const big = await post(u.key, { messages: [{ role: 'user', content: 'x'.repeat(5_000) }] })
      expect(big.status).toBe(413)
      expect(((await big.json()) as any).error.code).toBe('PAYLOAD_TOO_LARGE')
      await expectUntouched(u, seen)
    })

    test('401 UNAUTHORIZED for a missing, malformed, unknown, revoked or expired key; both header forms accepted', async () => {
      const u = await gw.user(1)
      const ok1 = await gw.request('/v1/chat/completions', { method: 'POST', headers: { 'x-api-key': u.key }, body: chatBody() })
      expect(ok1.status).toBe(200)
      const expired = await gw.user(1, { expiresAt: new Date(Date.now() - 1_000).toISOString() })
      const revoked = await gw.user(1)
      const del = await gw.request(`/api/admin/keys/${revoked.keyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(((await del.json()) as any).revoked).toBe(true)
      const headers: Record<string, string>[] = [
        {},
        { authorization: 'Basic abc' },
        { authorization: 'Bearer sk-doesnotexist0000000000000000000000000000' },
        { 'x-api-key': 'not-a-key' },
        bearer(expired.key),
        bearer(revoked.key),
      ]
      for (const h of headers) {
        const res = await gw.request('/v1/chat/completions', { method: 'POST', headers: h, body: chatBody() })
        expect(res.status).toBe(401)
        expect(((await res.json()) as any).error).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid, revoked or expired API key.' })
      }
    })

    test('503 MODEL_UNAVAILABLE for unknown, deprecated and unpriced models', async () => {
      const u = await gw.user(1)
      const seen = up.seen.length
      for (const model of ['acme/nope', 'acme/old', 'acme/unpriced']) {
        const res = await post(u.key, { model })
        expect(res.status).toBe(503)
        expect(((await res.json()) as any).error.code).toBe('MODEL_UNAVAILABLE')
      }
      await expectUntouched(u, seen)
    })

    test('402 PAYMENT_REQUIRED says whether the balance or the key limit ran short; nothing reserved', async () => {
      const poor = await gw.user(0.000001)
      const r1 = await post(poor.key, {})
      expect(r1.status).toBe(402)
      const b1 = (await r1.json()) as any
      expect(b1.error.code).toBe('PAYMENT_REQUIRED')
      expect(b1.error.message).toContain('balance')
      const limited = await gw.user(1, { limit: 0.000001 })
      const seen = up.seen.length
      const r2 = await post(limited.key, {})
      expect(r2.status).toBe(402)
      expect(((await r2.json()) as any).error.message).toContain('spend limit')
      await expectUntouched(limited, seen)
    })

    test('429 RATE_LIMITED after rpm requests, with Retry-After and RateLimit-*; the rejected call reserves nothing', async () => {
      const u = await gw.user(1, { rpm: 2 })
      const first = await post(u.key, {})
      expect(first.status).toBe(200)
      expect(first.headers.get('ratelimit-limit')).toBe('2')
      expect(first.headers.get('ratelimit-remaining')).toBe('1')
      expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0)
      expect((await post(u.key, {})).status).toBe(200)
      await gw.settled()
      const before = await gw.books(u.userId)
      const seen = up.seen.length
      const limited = await post(u.key, {})
      expect(limited.status).toBe(429)
      expect(((await limited.json()) as any).error.code).toBe('RATE_LIMITED')
      const retry = Number(limited.headers.get('retry-after'))
      expect(retry).toBeGreaterThanOrEqual(1)
      expect(retry).toBeLessThanOrEqual(60)
      expect(limited.headers.get('ratelimit-remaining')).toBe('0')
      expect(up.seen.length).toBe(seen)
      expect((await gw.runtime.deps.store.account(u.userId))?.reservedMicros).toBe(0n)
      await gw.settled()
      expect(await gw.books(u.userId)).toEqual(before)
    })
  })
}
