// 50 parallel calls against a balance that covers 10: the balance never goes negative, every
// success is billed exactly once, and the ledger sums to the balance.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { ledgerEntries, requestLogs } from '../../src/db/schema/index.ts'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'

// Every answer uses exactly the estimate: "Say hello" ≈ 13 chars → 5 prompt tokens (÷3),
// max_tokens 100 → reservation 5*0.15 + 100*0.6 = 60.75 → 61 micro-USD; usage reports the same.
const RESERVE = 61n

for (const backends of ALL_BACKENDS) {
  describe(`concurrency on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({
        kind: 'fn',
        handle: async () => {
          await Bun.sleep(5)
          return Response.json({
            id: 'chatcmpl-x',
            object: 'chat.completion',
            created: 1,
            model: 'upstream-secret-model',
            choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 5, completion_tokens: 100, total_tokens: 105 },
          })
        },
      })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    test('admits exactly what the balance covers and bills each success once', async () => {
      const u = await gw.user(Number(RESERVE * 10n) / 1e6, { rpm: 1_000 })
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body: chatBody({ max_tokens: 100 }) }).then(async (r) => ({
            status: r.status,
            id: r.headers.get('x-request-id')!,
            body: (await r.json()) as any,
          })),
        ),
      )
      const ok = results.filter((r) => r.status === 200)
      expect(ok).toHaveLength(10)
      expect(results.filter((r) => r.status === 402)).toHaveLength(40)
      for (const r of ok) expect(r.body.svc.cost).toBe(0.000061)
      await gw.settled()
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(0n)
      expect(books.ledgerSum).toBe(books.balance)
      const usage = await gw.runtime.deps.db
        .select({ requestId: ledgerEntries.requestId })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, u.userId), eq(ledgerEntries.kind, 'usage')))
      expect(usage.map((e) => e.requestId).sort()).toEqual(ok.map((r) => r.id).sort())
      const logs = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, u.userId))
      expect(logs).toHaveLength(50)
      expect(logs.filter((l) => l.status === 402)).toHaveLength(40)
      expect((await gw.runtime.deps.store.account(u.userId))?.reservedMicros).toBe(0n)
    })

    test('one request-log row per call with key, model, gateway, tokens, cost, latency and the x-request-id', async () => {
      const u = await gw.user(1)
      const res = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body: chatBody({ max_tokens: 100 }) })
      const id = res.headers.get('x-request-id')!
      await gw.settled()
      const rows = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, id))
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ keyId: u.keyId, model: 'acme/chat-1', gateway: 'gw-a', status: 200, inputTokens: 5, outputTokens: 100, costMicros: 61n, usageSource: 'upstream', protocol: 'chat', stream: false })
      expect(rows[0]!.latencyMs).toBeGreaterThanOrEqual(0)
    })
  })
}
