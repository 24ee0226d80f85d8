import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Every verified payment-provider event, once per (provider, event id): the audit trail of a
 * top-up ("what did the provider tell us?") and the first gate against duplicated deliveries.
 * Written in the same transaction that completes or fails the top-up.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    /** The top-up ledger entry the event names, if any. */
    transactionId: text('transaction_id'),
    /** credited | failed | ignored: <why> */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index('payment_events_txn_idx').on(t.transactionId, t.receivedAt)],
)
