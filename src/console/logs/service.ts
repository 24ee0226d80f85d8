// The user's request logs, keyset pages newest first (filters keyId, model, status, and the
// calls one usage entry billed), and one log.
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { GatewayError } from '../../core/errors.ts'
import { ledgerEntries, requestLogs } from '../../db/schema/index.ts'
import { formatUsd } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import { after, cursorAt, DEFAULT_PAGE, newestFirst, page } from '../http/pagination.ts'
import type { LogsQuery, RequestLog } from './model.ts'

type Row = typeof requestLogs.$inferSelect

/**
 * The usage entry that billed the call. Rows logged before usage entries covered a batch do not
 * name theirs: it is the per-call entry the ledger writer then wrote, `txn_u_<request id>`.
 */
export const transactionOf = (r: Pick<Row, 'id' | 'ledgerEntryId' | 'costMicros'>): string | null =>
  r.ledgerEntryId ?? (r.costMicros > 0n ? `txn_u_${r.id}` : null)

export function logView(r: Row): RequestLog {
  const { userId: _, costMicros, createdAt, ledgerEntryId: _e, fault, attempts, ...rest } = r
  return {
    ...rest,
    fault: fault === 'upstream' || fault === 'tollgate' ? fault : null,
    // The upstream model's name never reaches a client (docs/api.md "Upstream identity").
    attempts: attempts?.map(({ upstreamModel: _m, ...a }) => a) ?? null,
    cost: Number(formatUsd(costMicros)),
    transactionId: transactionOf(r),
    createdAt: createdAt.toISOString(),
  }
}

export async function listLogs(deps: Pick<ConsoleDeps, 'db'>, userId: string, q: LogsQuery) {
  const limit = q.limit ?? DEFAULT_PAGE
  const rows = await deps.db
    .select({ row: requestLogs, at: cursorAt(requestLogs.createdAt) })
    .from(requestLogs)
    .where(
      and(
        eq(requestLogs.userId, userId),
        q.keyId ? eq(requestLogs.keyId, q.keyId) : undefined,
        q.model ? eq(requestLogs.model, q.model) : undefined,
        q.status === 'success' ? lt(requestLogs.status, 400) : q.status === 'error' ? gte(requestLogs.status, 400) : undefined,
        q.transactionId === undefined ? undefined : await callsOf(deps, userId, q.transactionId),
        after(requestLogs.createdAt, requestLogs.id, q.cursor),
      ),
    )
    .orderBy(newestFirst(requestLogs.createdAt, requestLogs.id))
    .limit(limit + 1)
  const p = page(
    rows.map((r) => ({ ...r, id: r.row.id })),
    limit,
  )
  return { items: p.items.map(logView), nextCursor: p.nextCursor }
}

/**
 * The calls a usage entry of the user billed: those naming it, within the time its meta spans
 * (so the history's (user, created_at) index and the month partitions bound the read); for an
 * entry of one call (written before entries covered a batch, or by the settlement fallback), that call.
 */
async function callsOf(deps: Pick<ConsoleDeps, 'db'>, userId: string, transactionId: string): Promise<SQL> {
  const [e] = await deps.db
    .select({ kind: ledgerEntries.kind, requestId: ledgerEntries.requestId, meta: ledgerEntries.meta })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.id, transactionId), eq(ledgerEntries.userId, userId)))
  if (e?.kind !== 'usage') throw new GatewayError('NOT_FOUND', 'No such usage transaction.')
  if (e.requestId !== null) return eq(requestLogs.id, e.requestId)
  const from = String(e.meta?.from ?? '')
  const to = String(e.meta?.to ?? '')
  return sql`${requestLogs.createdAt} between ${from}::timestamptz and ${to}::timestamptz and ${requestLogs.ledgerEntryId} = ${transactionId}`
}

export async function logDetail(deps: Pick<ConsoleDeps, 'db'>, userId: string, id: string): Promise<RequestLog> {
  const [r] = await deps.db
    .select()
    .from(requestLogs)
    .where(and(eq(requestLogs.id, id), eq(requestLogs.userId, userId)))
  if (!r) throw new GatewayError('NOT_FOUND', 'No such request log.')
  return logView(r)
}
