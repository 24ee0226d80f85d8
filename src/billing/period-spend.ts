// The spend of keys whose limit resets (docs/api.md "Key settings"): the cost of their calls in
// the request log since the start of the current period (a usage entry covers an account's
// calls of one batch, whatever their keys: docs/api.md "Ledger"). Keys without `limitReset` show their lifetime
// spend (api_keys.spent_micros) instead. Settled calls reach the log within SETTLE_FLUSH_MS.
import { and, eq, gte, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { type apiKeys, requestLogs } from '../db/schema/index.ts'
import { type LimitReset, spendPeriod } from './spend-period.ts'

type KeyRow = Pick<typeof apiKeys.$inferSelect, 'id' | 'userId' | 'limitReset' | 'spentMicros'>

/** Each key's spend as its listing shows it (keys of one user): the current period's, or the lifetime's. */
export async function keySpends(db: Db, keys: readonly KeyRow[], nowMs: number): Promise<Map<string, bigint>> {
  const spends = new Map(keys.map((k) => [k.id, k.spentMicros]))
  const byReset = new Map<LimitReset, string[]>()
  for (const k of keys) if (k.limitReset) byReset.set(k.limitReset, [...(byReset.get(k.limitReset) ?? []), k.id])
  for (const [reset, ids] of byReset) {
    const rows = await periodSpent(db, keys[0]!.userId, ids, new Date(spendPeriod(reset, nowMs).startMs))
    for (const id of ids) spends.set(id, rows.get(id) ?? 0n)
  }
  return spends
}

/** The billed cost of `userId`'s keys `keyIds` since `from` (request_logs_user_key_created_idx). */
export async function periodSpent(
  db: Pick<Db, 'select'>,
  userId: string,
  keyIds: readonly string[],
  from: Date,
): Promise<Map<string, bigint>> {
  if (keyIds.length === 0) return new Map()
  const rows = await db
    .select({ keyId: requestLogs.keyId, spent: sql<string>`coalesce(sum(${requestLogs.costMicros}), 0)::text` })
    .from(requestLogs)
    .where(and(eq(requestLogs.userId, userId), inArray(requestLogs.keyId, [...keyIds]), gte(requestLogs.createdAt, from)))
    .groupBy(requestLogs.keyId)
  return new Map(rows.map((r) => [r.keyId, BigInt(r.spent)]))
}
