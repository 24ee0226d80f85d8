// Keeps request_logs' month partitions (migration *_request_logs_partitioned): creates the
// current month's and the next ones ahead of time, and — with a retention — drops months that
// ended before the cutoff. The SQL functions hold the layout; this file only decides when and
// which. Safe to run from every instance at once (the functions take an advisory lock).
import { sql } from 'drizzle-orm'
import { textArray } from './array-literal.ts'
import type { Db } from './client.ts'

const DAY_MS = 86_400_000

/** A moment inside each month to keep ready: this month and `ahead` more (UTC). */
export function monthsToKeep(nowMs: number, ahead: number): Date[] {
  const now = new Date(nowMs)
  return Array.from({ length: ahead + 1 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)))
}

/** Rows older than this may go; undefined keeps everything. */
export const retentionCutoff = (nowMs: number, retentionDays: number | undefined): Date | undefined =>
  retentionDays === undefined ? undefined : new Date(nowMs - retentionDays * DAY_MS)

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]

/**
 * Each month's partition if it exists, else null, asked in plain SQL: the ensure function's own
 * first check (the same name), without loading plpgsql when every month is there (an embedded
 * start from the snapshot: ≈ 15 ms).
 */
async function existingPartitions(db: Db, months: Date[]): Promise<(string | null)[]> {
  const rows = rowsOf<{ part: string | null }>(
    await db.execute(sql`select to_regclass('request_logs_p' || to_char(at AT TIME ZONE 'UTC', 'YYYYMM'))::text as part
      from unnest(${textArray(months.map((m) => m.toISOString()))}::text::timestamptz[]) with ordinality as m(at, i) order by i`),
  )
  return rows.map((r) => r.part)
}

async function ensurePartition(db: Db, month: Date): Promise<string> {
  const [row] = rowsOf<{ part: string }>(
    await db.execute(sql`select request_logs_ensure_partition(${month.toISOString()}::timestamptz) as part`),
  )
  return row!.part
}

export interface PartitionReport {
  ensured: string[]
  dropped: string[]
}

export async function maintainRequestLogPartitions(
  db: Db,
  nowMs: number,
  opts: { aheadMonths: number; retentionDays: number | undefined },
): Promise<PartitionReport> {
  const ensured: string[] = []
  const months = monthsToKeep(nowMs, opts.aheadMonths)
  const existing = await existingPartitions(db, months)
  for (const [i, month] of months.entries()) ensured.push(existing[i] ?? (await ensurePartition(db, month)))
  const cutoff = retentionCutoff(nowMs, opts.retentionDays)
  if (cutoff === undefined) return { ensured, dropped: [] }
  const dropped = rowsOf<{ part: string }>(
    await db.execute(sql`select request_logs_drop_before(${cutoff.toISOString()}::timestamptz) as part`),
  )
  return { ensured, dropped: dropped.map((r) => r.part) }
}
