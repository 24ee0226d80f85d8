import { bigint, boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './users.ts'

/**
 * A user's auto top-up (docs/console.md "Auto top-up"): when a settlement leaves the balance
 * under `threshold_micros`, one top-up of `amount_micros` starts. `in_flight` holds the pending
 * top-up's ledger id; it is claimed by a conditional update (set only while null), so across
 * instances at most one is ever in flight, and cleared when that top-up completes or fails.
 */
export const autoTopups = pgTable('auto_topups', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id),
  enabled: boolean('enabled').notNull().default(false),
  thresholdMicros: bigint('threshold_micros', { mode: 'bigint' }).notNull(),
  amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
  provider: text('provider').notNull(),
  /** The provider's saved payment method (Stripe: "cus_…/pm_…"); null until set up. */
  paymentMethod: text('payment_method'),
  /** The ledger id of the top-up in flight; null when none. */
  inFlight: text('in_flight'),
  /** Since when the balance is under the threshold (the low-balance notice went out); null above it. */
  lowSince: timestamp('low_since', { withTimezone: true }),
  /** Why auto top-up was turned off (a failed charge); null otherwise. */
  lastError: text('last_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
