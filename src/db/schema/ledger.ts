import { sql } from 'drizzle-orm'
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './users.ts'

export type LedgerKind = 'topup' | 'usage' | 'refund' | 'adjustment'
export type LedgerStatus = 'pending' | 'completed' | 'failed'

/**
 * Every balance movement (docs/api.md "Ledger"). amount_micros is signed: credits positive,
 * usage negative. `reference` is unique, which makes every writer idempotent: a usage entry's
 * reference is its request id, a top-up's is the payment session id.
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
  // Every console page and filter has its own index (docs/scaling.md): the ledger is never
  // pruned, so a filter served by scanning a user's history would slow down for years.
  (t) => [
    index('ledger_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('ledger_user_kind_created_idx').on(t.userId, t.kind, t.createdAt, t.id),
    index('ledger_user_status_created_idx').on(t.userId, t.status, t.createdAt, t.id),
    // Refunds of one entry (billing/refunds.ts refundsOf, whose predicate matches this one).
    // Reports: top-ups, refunds and adjustments completed in a period (docs/operators.md "Reports").
    index('ledger_kind_completed_idx').on(t.kind, t.completedAt).where(sql`${t.status} = 'completed'`),
    index('ledger_refund_of_idx').on(sql`(${t.meta}->>'refundOf')`).where(sql`${t.kind} = 'refund'`),
  ],
)
