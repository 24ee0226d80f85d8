// The user's request logs, keyset pages newest first (filters keyId, model, status), and one log.
import { and, eq, gte, lt } from 'drizzle-orm'
import { GatewayError } from '../../core/errors.ts'
import { requestLogs } from '../../db/schema/index.ts'
import { formatUsd } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import { after, cursorAt, DEFAULT_PAGE, newestFirst, page } from '../http/pagination.ts'
import type { LogsQuery, RequestLog } from './model.ts'

export function logView(r: typeof requestLogs.$inferSelect): RequestLog {
  const { userId: _, costMicros, createdAt, fault, attempts, ...rest } = r
  return {
    ...rest,
    fault: fault === 'upstream' || fault === 'tollgate' ? fault : null,
    // The upstream model's name never reaches a client (docs/api.md "Upstream identity").
    attempts: attempts?.map(({ upstreamModel: _m, ...a }) => a) ?? null,
    cost: Number(formatUsd(costMicros)),
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

export async function logDetail(deps: Pick<ConsoleDeps, 'db'>, userId: string, id: string): Promise<RequestLog> {
  const [r] = await deps.db
    .select()
    .from(requestLogs)
    .where(and(eq(requestLogs.id, id), eq(requestLogs.userId, userId)))
  if (!r) throw new GatewayError('NOT_FOUND', 'No such request log.')
  return logView(r)
}
