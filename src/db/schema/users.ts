import { sql } from 'drizzle-orm'
import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Set by the admin API: the user's keys are refused and the console refuses the user. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  /** `admin` may use the admin API and /console/admin with a console session (docs/operators.md). */
  role: text('role').$type<'user' | 'admin'>().notNull().default('user'),
  /** When the user proved they read this mailbox (a verification or reset link); null = never. */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /**
   * Moves with every password change; a session is valid only while it carries the version it
   * was made with (docs/console.md "Sessions"), so a reset ends every earlier sign-in.
   */
  credentialVersion: integer('credential_version').notNull().default(0),
})

/** One USD credit account per user. balance_micros always equals the sum of completed ledger entries. */
export const accounts = pgTable('accounts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id),
  balanceMicros: bigint('balance_micros', { mode: 'bigint' }).notNull().default(sql`0`),
  currency: text('currency').notNull().default('USD'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
