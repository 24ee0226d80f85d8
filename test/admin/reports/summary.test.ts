// The reports (docs/operators.md "Reports") over a seeded month agree with the ledger to the
// micro-USD: top-ups, refunds and usage; upstream cost from route `cost` prices, unknown (null)
// for a route without them, never zero; the daily series adds up to the summary; a batch the
// writer sees twice counts once; bad periods are refused.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, gte, inArray, lt, sql } from 'drizzle-orm'
import { writeRecords } from '../../../src/billing/ledger-batch.ts'
import { ledgerEntries, requestLogs } from '../../../src/db/schema/index.ts'
import { expectUsageCoversCalls } from '../../helpers/money.ts'
import { base62 } from '../../../src/lib/ids.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { usageRecord } from '../../helpers/records.ts'

const token = { authorization: `Bearer ${ADMIN_TOKEN}` }
const MONTH = { from: '2026-09-01', to: '2026-10-01' }
const at = (day: number, h = 12) => Date.UTC(2026, 8, day, h)

const catalog = {
  gateways: [{ id: 'gw-a', protocol: 'openai-chat' as const, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-x' }],
  models: ['acme/chat-1', 'acme/chat-2'].map((id) => ({
    id,
    name: id,
    provider: 'acme',
    contextWindow: 1000,
    capabilities: ['text'],
    pricing: { input: 1, output: 2 },
    // chat-1's upstream charges 0.1 / 0.4 per 1M tokens; chat-2's cost is not known.
    routes: [{ gateway: 'gw-a', model: 'up', ...(id === 'acme/chat-1' ? { cost: { input: 0.1, output: 0.4 } } : {}) }],
  })),
}

for (const backends of ALL_BACKENDS) {
  describe(`reports on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    const records: string[] = []
    let users: { userId: string; keyId: string }[]
    beforeAll(async () => {
      gw = await startTestGateway(backends, catalog)
      users = [await gw.user(0), await gw.user(0)]
      const db = gw.runtime.deps.db
      // 30 days, 3 calls a day: chat-1 by the first user, chat-2 by the second, one failed call.
      for (let day = 1; day <= 30; day++) {
        const common = { at: at(day), latencyMs: 100 + day }
        records.push(JSON.stringify(usageRecord({ ...users[0]!, ...common, requestId: `r1_${day}`, cost: String(1000 + day) })))
        records.push(
          JSON.stringify(usageRecord({ ...users[1]!, ...common, requestId: `r2_${day}`, model: 'acme/chat-2', cost: String(7 * day) })),
        )
        // Counted an error by its fault (the upstream's), as settlement records it — not by its status.
        const failed = {
          status: 502,
          errorCode: 'upstream_error',
          fault: 'upstream' as const,
          usage: { ...usageRecord({} as never).usage, inputTokens: 0, outputTokens: 0 },
        }
        records.push(JSON.stringify(usageRecord({ ...users[0]!, ...common, ...failed, requestId: `r3_${day}`, cost: '0' })))
      }
      // Edges: the first moment after the month and the last before it stay out.
      records.push(JSON.stringify(usageRecord({ ...users[0]!, at: Date.UTC(2026, 9, 1), requestId: 'r_after', cost: '999999' })))
      records.push(JSON.stringify(usageRecord({ ...users[0]!, at: Date.UTC(2026, 8, 1) - 1, requestId: 'r_before', cost: '999999' })))
      await writeRecords(db, records)
      const money = (kind: 'topup' | 'refund', amount: bigint, completed: number, status: 'completed' | 'pending' = 'completed') =>
        db.insert(ledgerEntries).values({
          id: `txn_${base62(12)}`,
          userId: users[0]!.userId,
          kind,
          status,
          amountMicros: amount,
          method: 'test',
          reference: `t:${base62(12)}`,
          createdAt: new Date(completed),
          completedAt: status === 'completed' ? new Date(completed) : null,
        })
      await money('topup', 10_000_000n, at(3))
      await money('topup', 2_500_001n, at(30, 23))
      await money('topup', 5_000_000n, at(4), 'pending')
      await money('topup', 4_000_000n, Date.UTC(2026, 9, 1))
      await money('refund', -1_000_000n, at(5))
    }, 60_000)
    afterAll(() => gw.stop())

    const get = async (path: string) => {
      const res = await gw.request(path, { headers: token })
      return { status: res.status, body: (await res.json()) as any }
    }

    test('summary agrees with the ledger to the micro-USD', async () => {
      const { status, body } = await get(`/api/admin/reports/summary?from=${MONTH.from}&to=${MONTH.to}`)
      expect(status).toBe(200)
      // The month's calls, each billed by the usage entry it names (docs/api.md "Ledger"), and
      // those entries exactly the calls naming them.
      const db = gw.runtime.deps.db
      const [month] = await db
        .select({
          usage: sql<string>`sum(${requestLogs.costMicros})::text`,
          unbilled: sql<number>`count(*) filter (where ${requestLogs.costMicros} > 0 and ${requestLogs.ledgerEntryId} is null)::int`,
        })
        .from(requestLogs)
        .where(
          and(
            inArray(
              requestLogs.userId,
              users.map((u) => u.userId),
            ),
            gte(requestLogs.createdAt, new Date(`${MONTH.from}T00:00:00Z`)),
            lt(requestLogs.createdAt, new Date(`${MONTH.to}T00:00:00Z`)),
          ),
        )
      // Σ(1000 + d) + Σ 7d over d = 1..30 = 30 465 + 3 255 micro-USD.
      expect(month!.usage).toBe('33720')
      expect(month!.unbilled).toBe(0)
      for (const u of users) await expectUsageCoversCalls(db, u.userId)
      expect(body.usage).toBe(0.03372)
      expect(body.topups).toEqual({ count: 2, amount: 12.500001 })
      expect(body.refunds).toEqual({ count: 1, amount: -1 })
      expect(body).toMatchObject({ calls: 90, errors: 30, errorRate: 0.3333 })
      // chat-2's route has no cost: its upstream cost and the total margin are unknown.
      expect(body.upstreamCost).toBeNull()
      expect(body.margin).toBeNull()
      const [one, two] = body.models
      // chat-1: 30 × (10 in, 20 out) tokens → (300 × 0.1 + 600 × 0.4) USD / 1M = 270 µUSD.
      expect(one).toMatchObject({ model: 'acme/chat-1', calls: 60, errors: 30, usage: 0.030465, upstreamCost: 0.00027, margin: 0.030195 })
      expect(two).toMatchObject({ model: 'acme/chat-2', calls: 30, errors: 0, usage: 0.003255, upstreamCost: null, margin: null })
      // Latencies 101..130 ms: the median call took 115 or 116 ms; a bucket is at most ~19 % wide.
      expect(two.p50Ms).toBeGreaterThanOrEqual(115)
      expect(two.p50Ms).toBeLessThanOrEqual(116 * 1.19)
      expect(two.p95Ms).toBeGreaterThanOrEqual(two.p50Ms)
      expect(body.topUsers.map((u: any) => [u.userId, u.usage, u.calls])).toEqual([
        [users[0]!.userId, 0.030465, 60],
        [users[1]!.userId, 0.003255, 30],
      ])
    })

    test('the daily series has every day and adds up to the summary', async () => {
      const { body } = await get(`/api/admin/reports/daily?from=${MONTH.from}&to=${MONTH.to}`)
      expect(body.items).toHaveLength(30)
      expect(body.items[0]).toEqual({
        id: '2026-09-01',
        day: '2026-09-01',
        topups: 0,
        refunds: 0,
        adjustments: 0,
        usage: 0.001008,
        calls: 3,
        errors: 1,
      })
      expect(body.items[2].topups).toBe(10)
      expect(body.items[29].topups).toBe(2.500001)
      const micros = body.items.reduce((n: number, d: any) => n + Math.round(d.usage * 1e6), 0)
      expect(micros).toBe(33_720)
    })

    test('the writer seeing a batch again changes no report', async () => {
      expect(await writeRecords(gw.runtime.deps.db, records)).toBe(0)
      const { body } = await get(`/api/admin/reports/summary?from=${MONTH.from}&to=${MONTH.to}`)
      expect(body).toMatchObject({ calls: 90, usage: 0.03372 })
    })

    test('a bad period is 422 naming the parameter', async () => {
      for (const [q, param] of [
        ['from=2026-09-31&to=2026-10-01', 'from'],
        ['from=2026-09-01&to=2026-09-01', 'to'],
        ['from=2025-01-01&to=2026-09-01', 'to'],
        ['from=yesterday&to=2026-09-01', 'from'],
        // Dates the store cannot hold (year 0) or reports never cover: 422, not the database's error.
        ['from=0000-01-01&to=0000-01-02', 'from'],
        ['from=1969-12-31&to=1970-01-02', 'from'],
      ] as const) {
        for (const report of ['summary', 'daily']) {
          const { status, body } = await get(`/api/admin/reports/${report}?${q}`)
          expect([q, status, body.error.code]).toEqual([q, 422, 'VALIDATION_FAILED'])
          expect(body.error.message.startsWith(param)).toBe(true)
        }
      }
      // The bounds themselves are reports.
      expect((await get('/api/admin/reports/summary?from=1970-01-01&to=1970-01-02')).status).toBe(200)
      expect((await get('/api/admin/reports/daily?from=9999-12-30&to=9999-12-31')).status).toBe(200)
      expect((await get('/api/admin/reports/daily?from=2026-09-01')).status).toBe(400)
    })
  })
}
