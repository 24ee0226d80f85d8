// The reports' queries (docs/operators.md "Reports") over written call records and ledger
// entries: per route, per user, per day and per latency bucket, the period's first day included
// and its end excluded, sums exact in micro-USD; money movements by UTC day of completion, only
// completed top-ups, refunds and adjustments; each route's cost prices.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { latencyBuckets, moneyByDay, routeCosts, topUsers, usageByDay, usageByRoute } from '../../../src/admin/reports/queries.ts'
import { parsePeriod } from '../../../src/admin/reports/period.ts'
import { issueKey } from '../../../src/auth/issue-key.ts'
import { createUser } from '../../../src/billing/accounts.ts'
import { writeRecords } from '../../../src/billing/ledger-batch.ts'
import { parseCatalogFile, upsertCatalog } from '../../../src/catalog/file.ts'
import { ledgerEntries } from '../../../src/db/schema/index.ts'
import { base62 } from '../../../src/lib/ids.ts'
import { simpleCatalog } from '../../helpers/gateway.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'
import { usageRecord } from '../../helpers/records.ts'

const P = parsePeriod('2026-03-01', '2026-03-03')
const at = (day: number, h = 12) => Date.UTC(2026, 2, day, h)

describe('report queries on embedded Postgres', () => {
  let m: MemoryDb
  let a: { userId: string; keyId: string; email: string }
  let b: { userId: string; keyId: string; email: string }
  beforeAll(async () => {
    m = await memoryDb()
    const mk = async (email: string) => {
      const u = await createUser(m.db, email, null)
      return { userId: u.id, keyId: (await issueKey(m, { userId: u.id })).id, email }
    }
    a = await mk('a@test.local')
    b = await mk('b@test.local')
    const rec = (who: typeof a, requestId: string, day: number, cost: string, o: object = {}) =>
      JSON.stringify(usageRecord({ userId: who.userId, keyId: who.keyId, requestId, cost, at: at(day), ...o }))
    await writeRecords(m.db, [
      rec(a, 'r1', 1, '1000', { latencyMs: 40 }),
      rec(a, 'r2', 2, '2000', { gateway: 'gw-b', latencyMs: 40 }),
      rec(b, 'r3', 2, '5000', { model: 'acme/chat-2', latencyMs: 4000 }),
      rec(b, 'r4', 1, '0', {
        status: 502,
        errorCode: 'UPSTREAM_ERROR',
        fault: 'upstream',
        usage: { ...usageRecord({} as never).usage, outputTokens: 0 },
      }),
      // The first moment after the period and the last before it stay out.
      rec(a, 'r5', 3, '999', { at: P.toMs }),
      rec(a, 'r6', 1, '999', { at: P.fromMs - 1 }),
    ])
    const money = (kind: 'topup' | 'refund' | 'adjustment' | 'usage', micros: bigint, completedAt: number, status = 'completed') =>
      m.db.insert(ledgerEntries).values({
        id: `txn_${base62(12)}`,
        userId: a.userId,
        kind,
        status: status as 'completed',
        amountMicros: micros,
        method: 'test',
        reference: `test:${base62(12)}`,
        completedAt: new Date(completedAt),
      })
    await money('topup', 5_000_000n, at(1, 0))
    await money('topup', 1_000_000n, at(1, 23))
    await money('refund', -500_000n, at(2))
    await money('adjustment', 250_000n, at(2))
    await money('topup', 9_000_000n, at(2), 'pending')
    await money('topup', 9_000_000n, P.toMs)
    await upsertCatalog(
      m.db,
      parseCatalogFile(
        simpleCatalog([
          { id: 'gw-a', url: 'http://127.0.0.1:9' },
          { id: 'gw-b', url: 'http://127.0.0.1:9' },
        ]),
      ),
    )
  }, 30_000)
  afterAll(() => m.close())

  test('usageByRoute: calls, errors, billed usage and tokens per model and gateway', async () => {
    const rows = await usageByRoute(m.db, P)
    const row = (model: string, gateway: string) => rows.find((r) => r.model === model && r.gateway === gateway)
    expect(rows).toHaveLength(3)
    expect(row('acme/chat-1', 'gw-a')).toEqual({
      model: 'acme/chat-1',
      gateway: 'gw-a',
      calls: 2n,
      errors: 1n,
      usage: 1000n,
      tokens: { input: 20n, output: 20n, cacheRead: 0n, cacheWrite: 0n },
    })
    expect(row('acme/chat-1', 'gw-b')).toMatchObject({ calls: 1n, errors: 0n, usage: 2000n })
    expect(row('acme/chat-2', 'gw-a')).toMatchObject({ calls: 1n, usage: 5000n })
  })

  test('topUsers: by billed usage, highest first, limited, with the email', async () => {
    expect(await topUsers(m.db, P, 10)).toEqual([
      { userId: b.userId, email: 'b@test.local', calls: 2n, usage: 5000n },
      { userId: a.userId, email: 'a@test.local', calls: 2n, usage: 3000n },
    ])
    expect(await topUsers(m.db, P, 1)).toHaveLength(1)
  })

  test('usageByDay and latencyBuckets: per UTC day, per model and bucket', async () => {
    const days = (await usageByDay(m.db, P)).sort((x, y) => x.day.localeCompare(y.day))
    expect(days).toEqual([
      { day: '2026-03-01', calls: 2n, errors: 1n, usage: 1000n },
      { day: '2026-03-02', calls: 2n, errors: 0n, usage: 7000n },
    ])
    const buckets = await latencyBuckets(m.db, P)
    expect(buckets.reduce((n, x) => n + x.calls, 0n)).toBe(4n)
    const calls = (model: string) => buckets.filter((x) => x.model === model).reduce((n, x) => n + x.calls, 0n)
    expect([calls('acme/chat-1'), calls('acme/chat-2')]).toEqual([3n, 1n])
    expect(buckets.filter((x) => x.model === 'acme/chat-2')).toHaveLength(1)
  })

  test('moneyByDay: completed top-ups, refunds and adjustments by UTC day of completion', async () => {
    const rows = (await moneyByDay(m.db, P)).sort((x, y) => (x.day + x.kind).localeCompare(y.day + y.kind))
    expect(rows).toEqual([
      { day: '2026-03-01', kind: 'topup', count: 2, amount: 6_000_000n },
      { day: '2026-03-02', kind: 'adjustment', count: 1, amount: 250_000n },
      { day: '2026-03-02', kind: 'refund', count: 1, amount: -500_000n },
    ])
  })

  test('routeCosts: one entry per model and gateway, keyed model\\ngateway', async () => {
    const costs = await routeCosts(m.db)
    expect([...costs.keys()].sort()).toEqual(['acme/chat-1\ngw-a', 'acme/chat-1\ngw-b'])
  })
})
