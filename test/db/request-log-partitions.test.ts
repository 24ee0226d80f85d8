// Month partitions of request_logs: which months are kept ready (UTC), the retention cutoff, and
// maintenance on a migrated Postgres — idempotent, dropping only whole months before the cutoff.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { maintainRequestLogPartitions, monthsToKeep, retentionCutoff } from '../../src/db/request-log-partitions.ts'
import { describeServices } from '../helpers/services.ts'
import { migratedDatabase } from './schema/migrated.ts'

describe('monthsToKeep', () => {
  test('this month and the next ones, as UTC month starts', () => {
    expect(monthsToKeep(Date.UTC(2030, 4, 17, 10), 1).map((d) => d.toISOString())).toEqual([
      '2030-05-01T00:00:00.000Z',
      '2030-06-01T00:00:00.000Z',
    ])
  })
  test('ahead 0 is this month only; the last instant of a month is still that month', () => {
    expect(monthsToKeep(Date.UTC(2030, 0, 31, 23, 59, 59, 999), 0).map((d) => d.toISOString())).toEqual(['2030-01-01T00:00:00.000Z'])
  })
  test('a long run ahead crosses year ends', () => {
    const months = monthsToKeep(Date.UTC(2030, 10, 1), 14).map((d) => d.toISOString().slice(0, 7))
    expect(months).toHaveLength(15)
    expect(months.slice(0, 3)).toEqual(['2030-11', '2030-12', '2031-01'])
    expect(months.at(-1)).toBe('2032-01')
  })
})

describe('retentionCutoff', () => {
  test('whole days back from now; none without a retention', () => {
    const now = Date.UTC(2030, 2, 10, 6)
    expect(retentionCutoff(now, 1)?.toISOString()).toBe('2030-03-09T06:00:00.000Z')
    expect(retentionCutoff(now, 365)?.toISOString()).toBe('2029-03-10T06:00:00.000Z')
    expect(retentionCutoff(now, undefined)).toBeUndefined()
  })
})

describeServices('maintainRequestLogPartitions on Postgres', () => {
  const h = migratedDatabase()
  const NOW = Date.UTC(2033, 6, 15)
  const partitions = async () =>
    (
      (await h.db.execute(
        sql`select c.relname as p from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'request_logs'::regclass and c.relname like 'request_logs_p2033%' order by 1`,
      )) as unknown as { p: string }[]
    ).map((r) => r.p)

  test('ensures this month and the months ahead, idempotently', async () => {
    const first = await maintainRequestLogPartitions(h.db, NOW, { aheadMonths: 2, retentionDays: undefined })
    expect(first).toEqual({ ensured: ['request_logs_p203307', 'request_logs_p203308', 'request_logs_p203309'], dropped: [] })
    const again = await maintainRequestLogPartitions(h.db, NOW, { aheadMonths: 2, retentionDays: undefined })
    expect(again).toEqual(first)
    expect(await partitions()).toEqual(['request_logs_p203307', 'request_logs_p203308', 'request_logs_p203309'])
  })

  test('with a retention, months that ended before the cutoff are dropped, the cutoff’s own month kept', async () => {
    await maintainRequestLogPartitions(h.db, Date.UTC(2033, 0, 10), { aheadMonths: 2, retentionDays: undefined }) // Jan–Mar 2033
    // 150 days before 2033-07-15 is 2033-02-15: January ended before it, February did not.
    const report = await maintainRequestLogPartitions(h.db, NOW, { aheadMonths: 0, retentionDays: 150 })
    // (the months the migration made for the real today are long before it too)
    expect(report.dropped).toContain('request_logs_p203301')
    expect(report.dropped.every((p) => p < 'request_logs_p203302')).toBe(true)
    expect(await partitions()).toEqual([
      'request_logs_p203302',
      'request_logs_p203303',
      'request_logs_p203307',
      'request_logs_p203308',
      'request_logs_p203309',
    ])
  })
})
