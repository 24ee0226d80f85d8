// The user's ledger: keyset pages newest first (filters kind, status) and one entry's detail.
import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import { refundsOf } from '../../billing/refunds.ts'
import { GatewayError } from '../../core/errors.ts'
import { ledgerEntries, paymentEvents } from '../../db/schema/index.ts'
import { formatUsd } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import { after, cursorAt, DEFAULT_PAGE, newestFirst, page } from '../http/pagination.ts'
import type { Transaction, TransactionDetail, TransactionsQuery } from './model.ts'

type Entry = typeof ledgerEntries.$inferSelect

const usd = (micros: bigint) => Number(formatUsd(micros))

export function transactionView(e: Entry): Transaction {
  return {
    id: e.id,
    kind: e.kind,
    status: e.status,
    amount: usd(e.amountMicros),
    currency: 'USD',
    method: e.method,
    reference: e.reference,
    requestId: e.requestId,
    createdAt: e.createdAt.toISOString(),
    completedAt: e.completedAt?.toISOString() ?? null,
  }
}

/**
 * A filter on an enumerated value (validated by the model), as a literal: the partial indexes
 * for the rare kinds and statuses (schema/ledger.ts) then serve it under generic prepared plans.
 */
const literally = (column: typeof ledgerEntries.kind | typeof ledgerEntries.status, value: string): SQL =>
  sql`${column} = ${sql.raw(`'${value.replace(/'/g, "''")}'`)}`

export async function listTransactions(deps: Pick<ConsoleDeps, 'db'>, userId: string, q: TransactionsQuery) {
  const limit = q.limit ?? DEFAULT_PAGE
  const rows = await deps.db
    .select({ row: ledgerEntries, at: cursorAt(ledgerEntries.createdAt) })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.userId, userId),
        q.kind ? literally(ledgerEntries.kind, q.kind) : undefined,
        q.status ? literally(ledgerEntries.status, q.status) : undefined,
        after(ledgerEntries.createdAt, ledgerEntries.id, q.cursor),
      ),
    )
    .orderBy(newestFirst(ledgerEntries.createdAt, ledgerEntries.id))
    .limit(limit + 1)
  const p = page(
    rows.map((r) => ({ ...r, id: r.row.id })),
    limit,
  )
  return { items: p.items.map(transactionView), nextCursor: p.nextCursor }
}

const text = (v: unknown) => (typeof v === 'string' ? v : null)

export async function transactionDetail(deps: Pick<ConsoleDeps, 'db'>, userId: string, id: string): Promise<TransactionDetail> {
  const [e] = await deps.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.id, id), eq(ledgerEntries.userId, userId)))
  if (!e) throw new GatewayError('NOT_FOUND', 'No such transaction.')
  const meta = e.meta ?? {}
  const base = { ...transactionView(e), keyId: e.keyId, note: text(meta.note) }
  switch (e.kind) {
    case 'usage':
      // An entry covers the calls one settlement batch billed (docs/api.md "Ledger"): their
      // count and time span; GET /api/logs?transactionId= lists them. An entry written before
      // that, or by the settlement fallback, covers one call: its model and tokens are here too.
      return {
        ...base,
        calls: typeof meta.calls === 'number' ? meta.calls : 1,
        from: text(meta.from) === null ? e.createdAt.toISOString() : new Date(text(meta.from)!).toISOString(),
        to: text(meta.to) === null ? e.createdAt.toISOString() : new Date(text(meta.to)!).toISOString(),
        model: text(meta.model),
        usage: tokens(meta.usage),
        usageSource: text(meta.usageSource),
        refunded: await refunded(deps, e.id),
      }
    case 'topup': {
      const events = await deps.db
        .select({ type: paymentEvents.type, outcome: paymentEvents.outcome, receivedAt: paymentEvents.receivedAt })
        .from(paymentEvents)
        .where(eq(paymentEvents.transactionId, e.id))
        .orderBy(asc(paymentEvents.receivedAt))
      return {
        ...base,
        failure: text(meta.failure),
        events: events.map((v) => ({ ...v, receivedAt: v.receivedAt.toISOString() })),
        refunded: await refunded(deps, e.id),
      }
    }
    case 'refund':
      return { ...base, refundOf: text(meta.refundOf) }
    default:
      return base
  }
}

function tokens(u: unknown): TransactionDetail['usage'] {
  if (!u || typeof u !== 'object') return null
  const n = (k: string) => Number((u as Record<string, unknown>)[k] ?? 0) || 0
  return {
    inputTokens: n('inputTokens'),
    outputTokens: n('outputTokens'),
    cacheReadTokens: n('cacheReadTokens'),
    cacheWriteTokens: n('cacheWriteTokens'),
    reasoningTokens: n('reasoningTokens'),
  }
}

async function refunded(deps: Pick<ConsoleDeps, 'db'>, id: string): Promise<number> {
  const [r] = await deps.db
    .select({ sum: sql<string>`coalesce(sum(abs(${ledgerEntries.amountMicros})), 0)::text` })
    .from(ledgerEntries)
    .where(and(refundsOf(id), eq(ledgerEntries.status, 'completed')))
  return usd(BigInt(r?.sum ?? '0'))
}
