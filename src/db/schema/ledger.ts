import { sql } from 'drizzle-orm'
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './users.ts'

export type LedgerKind = 'topup' | 'usage' | 'refund' | 'adjustment'
export type LedgerStatus = 'pending' | 'completed' | 'failed'

/**
 * Every balance movement (docs/api.md "Ledger"). amount_micros is signed: credits positive,
 * usage negative. `reference` is unique, which makes every writer idempotent: a top-up's is the
 * payment session id. A usage entry covers the calls one ledger-writer batch settled for the
 * account; each of those calls' request_logs rows names it (docs/api.md "Ledger").
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').$type<LedgerKind>().notNull(),
    status: text('status').$type<LedgerStatus>().notNull(),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    method: text('method').notNull(),
    reference: text('reference').notNull().unique(),
    keyId: text('key_id'),
    requestId: text('request_id'),
    meta: jsonb('meta').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  // Each index and the queries it serves: docs/scaling.md "Indexes and the queries they serve".
  // The ledger is never pruned, so a filter served by scanning a user's history would slow down
  // for years; usage entries (most rows) stay out of the partial ones, which their filters
  // do not need: a usage entry is always completed, and usage is most of a user's history.
  (t) => [
    // The wallet's transactions, page by page; its kind=usage and status=completed filters.
    index('ledger_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The kind filter for top-ups, refunds and adjustments (console/transactions/service.ts).
    index('ledger_user_kind_created_idx').on(t.userId, t.kind, t.createdAt, t.id).where(sql`${t.kind} <> 'usage'`),
    // The status filter for pending and failed entries.
    index('ledger_user_status_created_idx').on(t.userId, t.status, t.createdAt, t.id).where(sql`${t.status} <> 'completed'`),
    // Reports: top-ups, refunds and adjustments completed in a period (docs/operators.md "Reports").
    index('ledger_kind_completed_idx').on(t.kind, t.completedAt).where(sql`${t.status} = 'completed' and ${t.kind} <> 'usage'`),
    // Refunds of one entry (billing/refunds.ts refundsOf, whose predicate matches this one).
    index('ledger_refund_of_idx').on(sql`(${t.meta}->>'refundOf')`).where(sql`${t.kind} = 'refund'`),
  ],
)
