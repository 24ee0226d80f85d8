// One request_logs row per authenticated call, whatever its outcome (200 JSON or stream, 400,
// 402, 422, 429, 502, 503), with its key, model, gateway, status, tokens, cost and latency, and
// id = the x-request-id the client saw. An unauthenticated call leaves no row.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { completionWithUsage, logOf, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'

for (const backends of ALL_BACKENDS) {
  describe(`chat request logs on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      // 5 prompt + 100 completion tokens → 5*0.15 + 100*0.6 = 60.75 → 61 micro-USD.
      up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    test('every authenticated call has exactly one row describing it', async () => {
      const u = await gw.user(1, { rpm: 3 })
      const keyRes = await gw.request('/api/admin/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ userId: u.userId, limit: 0.000001 }),
      })
      const capped = (await keyRes.json()) as { id: string; key: string }
      const t0 = Date.now()
      const calls: { res: Response; key: string; expect: Record<string, unknown> }[] = []
      const run = async (key: string, body: string | Record<string, unknown>, expected: number, row: Record<string, unknown>) => {
        const res = await postChat(gw, key, body)
        expect(res.status).toBe(expected)
        await res.text()
        calls.push({ res, key, expect: { status: expected, ...row } })
      }
      const none = { gateway: null, inputTokens: 0, outputTokens: 0, costMicros: 0n, usageSource: 'none' }

      await run(u.key, {}, 200, {
        model: 'acme/chat-1',
        gateway: 'gw-a',
        stream: false,
        errorCode: null,
        inputTokens: 5,
        outputTokens: 100,
        costMicros: 61n,
        usageSource: 'upstream',
      })
      up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse') })
      // stream-text-usage.sse: 16 + 10 tokens → 2.4 + 6 = 8.4 → 9 micro-USD.
      await run(u.key, { stream: true }, 200, {
        model: 'acme/chat-1',
        gateway: 'gw-a',
        stream: true,
        errorCode: null,
        inputTokens: 16,
        outputTokens: 10,
        costMicros: 9n,
        usageSource: 'upstream',
      })
      await run(u.key, { temperature: 9 }, 422, { ...none, model: 'acme/chat-1', errorCode: 'VALIDATION_FAILED' })
      await run(u.key, '{"model": "acme/chat-1",', 400, { ...none, model: '', errorCode: 'BAD_REQUEST' })
      await run(u.key, { model: 'acme/nope', stream: true }, 503, { ...none, model: 'acme/nope', stream: true })
      up.script({ kind: 'status', status: 500 })
      await run(u.key, {}, 502, { ...none, model: 'acme/chat-1', errorCode: 'UPSTREAM_ERROR' })
      await run(u.key, {}, 429, { ...none, model: 'acme/chat-1', errorCode: 'RATE_LIMITED' })
      await run(capped.key, {}, 402, { ...none, model: 'acme/chat-1', errorCode: 'PAYMENT_REQUIRED' })
      // Unauthenticated: no row.
      expect((await postChat(gw, 'sk-unknown00000000000000000000000000000000')).status).toBe(401)
      await gw.settled()

      for (const c of calls) {
        const id = c.res.headers.get('x-request-id')!
        expect(id).toMatch(/^req_/)
        const row = await logOf(gw, id)
        expect(row).toMatchObject({
          id,
          userId: u.userId,
          keyId: c.key === u.key ? u.keyId : capped.id,
          protocol: 'chat',
          stream: false,
          ...c.expect,
        })
        expect(Number.isInteger(row.latencyMs)).toBe(true)
        expect(row.latencyMs).toBeGreaterThanOrEqual(0)
        expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(t0 - 1_000)
        expect(row.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000)
      }
      const rows = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, u.userId))
      expect(rows.map((r) => r.id).sort()).toEqual(calls.map((c) => c.res.headers.get('x-request-id')!).sort())
      expect(rows.find((r) => r.model === 'acme/nope')!.errorCode).toMatch(/^MODEL_/)
      // The rows' costs are what the balance paid.
      const billed = rows.reduce((sum, r) => sum + r.costMicros, 0n)
      expect(billed).toBe(70n)
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n - billed, ledgerSum: 1_000_000n - billed })
    })
  })
}
