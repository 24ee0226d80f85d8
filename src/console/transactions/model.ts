// Ledger entries as the user sees them (docs/console.md "Wallet";
// docs/api.md "Ledger": kinds topup/usage/refund/adjustment, status pending → completed | failed).
import { t } from 'elysia'
import { Nullable, OneOf, PageQuery, pageOf } from '../http/models.ts'

export const KINDS = ['topup', 'usage', 'refund', 'adjustment'] as const
export const STATUSES = ['pending', 'completed', 'failed'] as const

export const Transaction = t.Object({
  id: t.String(),
  kind: OneOf('kind', KINDS),
  status: OneOf('status', STATUSES),
  amount: t.Number({ description: 'Signed USD: credits positive, charges negative' }),
  currency: t.Literal('USD'),
  method: t.String({ description: 'stripe, sandbox, api (usage), admin, …' }),
  reference: t.String({ description: 'Unique per movement: usage:<batch>:<user> for usage, the top-up id, …' }),
  requestId: Nullable(t.String()),
  createdAt: t.String({ format: 'date-time' }),
  completedAt: Nullable(t.String({ format: 'date-time' })),
})
export type Transaction = typeof Transaction.static

export const Tokens = t.Object({
  inputTokens: t.Integer(),
  outputTokens: t.Integer(),
  cacheReadTokens: t.Integer(),
  cacheWriteTokens: t.Integer(),
  reasoningTokens: t.Integer(),
})

export const TransactionDetail = t.Composite([
  Transaction,
  t.Object({
    keyId: Nullable(t.String()),
    note: Nullable(t.String()),
    /** usage: how many calls the entry billed, and the span of their times (GET /api/logs?transactionId= lists them) */
    calls: t.Optional(t.Integer()),
    from: t.Optional(t.String({ format: 'date-time' })),
    to: t.Optional(t.String({ format: 'date-time' })),
    /** usage of one call (entries written before usage covered a batch) */
    model: t.Optional(Nullable(t.String())),
    usage: t.Optional(Nullable(Tokens)),
    usageSource: t.Optional(Nullable(t.String())),
    /** topup */
    failure: t.Optional(Nullable(t.String())),
    events: t.Optional(t.Array(t.Object({ type: t.String(), outcome: t.String(), receivedAt: t.String({ format: 'date-time' }) }))),
    /** topup and usage: refunds made against this entry, USD (positive) */
    refunded: t.Optional(t.Number()),
    /** refund */
    refundOf: t.Optional(Nullable(t.String())),
  }),
])
export type TransactionDetail = typeof TransactionDetail.static

export const TransactionsQuery = t.Object({
  ...PageQuery,
  kind: t.Optional(OneOf('kind', KINDS)),
  status: t.Optional(OneOf('status', STATUSES)),
})
export type TransactionsQuery = typeof TransactionsQuery.static

export const TransactionList = pageOf(Transaction)
