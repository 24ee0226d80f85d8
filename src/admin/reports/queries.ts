// The reads behind the reports (docs/operators.md "Reports"), each an index range: request_daily
// and latency_daily by their (day, …) primary keys, ledger_entries by ledger_kind_completed_idx.
// Sums leave Postgres as text (bigint-exact) and become bigint here.
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { latencyDaily, ledgerEntries, modelRoutes, requestDaily, users } from '../../db/schema/index.ts'
import { type RouteCost, routeCost } from '../route-cost.ts'
import type { Period } from './period.ts'

const big = (text: string | null) => BigInt(text ?? '0')
const sum = (col: Parameters<typeof sql>[1]) => sql<string>`coalesce(sum(${col}), 0)::text`
const inDays = (p: Period) => and(gte(requestDaily.day, p.from), lt(requestDaily.day, p.to))

/** Calls, errors, billed usage and tokens per model and gateway. */
export async function usageByRoute(db: Db, p: Period) {
  const rows = await db
    .select({
      model: requestDaily.model,
      gateway: requestDaily.gateway,
      calls: sum(requestDaily.calls),
      errors: sum(requestDaily.errors),
      usage: sum(requestDaily.costMicros),
      input: sum(requestDaily.inputTokens),
      output: sum(requestDaily.outputTokens),
      cacheRead: sum(requestDaily.cacheReadTokens),
      cacheWrite: sum(requestDaily.cacheWriteTokens),
    })
    .from(requestDaily)
    .where(inDays(p))
    .groupBy(requestDaily.model, requestDaily.gateway)
  return rows.map((r) => ({
    model: r.model,
    gateway: r.gateway,
    calls: big(r.calls),
    errors: big(r.errors),
    usage: big(r.usage),
    tokens: { input: big(r.input), output: big(r.output), cacheRead: big(r.cacheRead), cacheWrite: big(r.cacheWrite) },
  }))
}

/** The `limit` users with the most billed usage. */
export async function topUsers(db: Db, p: Period, limit: number) {
  const usage = sql<string>`sum(${requestDaily.costMicros})`
  const rows = await db
    .select({ userId: requestDaily.userId, email: users.email, calls: sum(requestDaily.calls), usage: sql<string>`${usage}::text` })
    .from(requestDaily)
    .leftJoin(users, eq(users.id, requestDaily.userId))
    .where(inDays(p))
    .groupBy(requestDaily.userId, users.email)
    .orderBy(desc(usage), requestDaily.userId)
    .limit(limit)
  return rows.map((r) => ({ userId: r.userId, email: r.email, calls: big(r.calls), usage: big(r.usage) }))
}

export async function latencyBuckets(db: Db, p: Period) {
  const rows = await db
    .select({ model: latencyDaily.model, bucket: latencyDaily.bucket, calls: sum(latencyDaily.calls) })
    .from(latencyDaily)
    .where(and(gte(latencyDaily.day, p.from), lt(latencyDaily.day, p.to)))
    .groupBy(latencyDaily.model, latencyDaily.bucket)
  return rows.map((r) => ({ model: r.model, bucket: r.bucket, calls: big(r.calls) }))
}

/** Completed top-ups, refunds and adjustments per UTC day of completion. */
export async function moneyByDay(db: Db, p: Period) {
  const day = sql<string>`to_char(${ledgerEntries.completedAt} at time zone 'UTC', 'YYYY-MM-DD')`
  const rows = await db
    .select({ day, kind: ledgerEntries.kind, count: sql<number>`count(*)::int`, amount: sum(ledgerEntries.amountMicros) })
    .from(ledgerEntries)
    .where(
      and(
        // Literals: the partial index ledger_kind_completed_idx (schema/ledger.ts) leaves usage out.
        sql`${ledgerEntries.kind} in ('topup', 'refund', 'adjustment') and ${ledgerEntries.status} = 'completed'`,
        gte(ledgerEntries.completedAt, new Date(p.fromMs)),
        lt(ledgerEntries.completedAt, new Date(p.toMs)),
      ),
    )
    .groupBy(day, ledgerEntries.kind)
  return rows.map((r) => ({ day: r.day, kind: r.kind, count: r.count, amount: big(r.amount) }))
}

/** Calls, errors and billed usage per UTC day. */
export async function usageByDay(db: Db, p: Period) {
  const rows = await db
    .select({
      day: requestDaily.day,
      calls: sum(requestDaily.calls),
      errors: sum(requestDaily.errors),
      usage: sum(requestDaily.costMicros),
    })
    .from(requestDaily)
    .where(inDays(p))
    .groupBy(requestDaily.day)
  return rows.map((r) => ({ day: r.day, calls: big(r.calls), errors: big(r.errors), usage: big(r.usage) }))
}

/** Each route's cost prices, keyed `model\ngateway` (the first route of the model to that gateway). */
export async function routeCosts(db: Db) {
  const rows = await db.select().from(modelRoutes).orderBy(modelRoutes.modelId, modelRoutes.position)
  const costs = new Map<string, RouteCost>()
  for (const r of rows) {
    const key = `${r.modelId}\n${r.gatewayId}`
    if (!costs.has(key)) costs.set(key, routeCost(r.options))
  }
  return costs
}
