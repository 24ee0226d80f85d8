import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Outbox records Postgres refused even after sanitising (docs/operations.md "Ledger writer"):
 * kept with their raw form (NUL and unpaired surrogates escaped as \uXXXX) and the error, so
 * an operator can repair and replay them. A record here is NOT billed until replayed.
 */
export const ledgerDeadLetters = pgTable(
  'ledger_dead_letters',
  {
    id: text('id').primaryKey(),
    /** The record's request id when it could be read; unique, so redelivery adds no row. */
    requestId: text('request_id').unique(),
    raw: text('raw').notNull(),
    error: text('error').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_dead_letters_created_idx').on(t.createdAt)],
)
