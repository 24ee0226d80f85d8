// The daily report (docs/operators.md "Reports"): one row per UTC day of the period, every day
// present (zeros on a quiet day), money and usage in USD, and the rows adding up to the period.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { dailyReport } from '../../../src/admin/reports/daily.ts'
import { parsePeriod } from '../../../src/admin/reports/period.ts'
import { issueKey } from '../../../src/auth/issue-key.ts'
import { applyMovement, createUser } from '../../../src/billing/accounts.ts'
import { writeRecords } from '../../../src/billing/ledger-batch.ts'
import { ledgerEntries } from '../../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'
import { usageRecord } from '../../helpers/records.ts'
import { eq } from 'drizzle-orm'

describe('daily report on embedded Postgres', () => {
  let m: MemoryDb
  beforeAll(async () => {
    m = await memoryDb()
    const u = await createUser(m.db, 'daily@test.local', null)
    const keyId = (await issueKey(m, { userId: u.id })).id
    const on = (day: number) => Date.UTC(2026, 4, day, 9)
    await writeRecords(m.db, [
      JSON.stringify(usageRecord({ userId: u.id, keyId, requestId: 'd1', cost: '1500000', at: on(1) })),
      JSON.stringify(usageRecord({ userId: u.id, keyId, requestId: 'd2', cost: '500000', at: on(1) })),
      JSON.stringify(
        usageRecord({
          userId: u.id,
          keyId,
          requestId: 'd3',
          cost: '0',
          at: on(3),
          status: 503,
          errorCode: 'UPSTREAM_ERROR',
          fault: 'upstream',
        }),
      ),
    ])
    for (const [reference, micros, kind] of [
      ['t1', 20_000_000n, 'topup'],
      ['a1', -1_000_000n, 'adjustment'],
    ] as const) {
      await applyMovement(m.db, m.store, { userId: u.id, amountMicros: micros, kind, method: 'test', reference })
      await m.db
        .update(ledgerEntries)
        .set({ completedAt: new Date(on(3)) })
        .where(eq(ledgerEntries.reference, reference))
    }
  }, 30_000)
  afterAll(() => m.close())

  test('every day of the period is a row, quiet days with zeros', async () => {
    const r = await dailyReport(m.db, parsePeriod('2026-05-01', '2026-05-05'))
    expect([r.from, r.to]).toEqual(['2026-05-01', '2026-05-05'])
    expect(r.items.map((i) => i.day)).toEqual(['2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04'])
    expect(r.items.map((i) => i.id)).toEqual(r.items.map((i) => i.day))
    expect(r.items[0]).toEqual({
      id: '2026-05-01',
      day: '2026-05-01',
      topups: 0,
      refunds: 0,
      adjustments: 0,
      usage: 2,
      calls: 2,
      errors: 0,
    })
    expect(r.items[1]).toEqual({
      id: '2026-05-02',
      day: '2026-05-02',
      topups: 0,
      refunds: 0,
      adjustments: 0,
      usage: 0,
      calls: 0,
      errors: 0,
    })
    expect(r.items[2]).toMatchObject({ topups: 20, adjustments: -1, calls: 1, errors: 1, usage: 0 })
  })

  test('a period that excludes the days with data is all zeros', async () => {
    const r = await dailyReport(m.db, parsePeriod('2026-04-29', '2026-05-01'))
    expect(r.items).toHaveLength(2)
    expect(r.items.every((i) => i.calls === 0 && i.usage === 0 && i.topups === 0)).toBe(true)
  })
})
