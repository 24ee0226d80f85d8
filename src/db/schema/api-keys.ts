import { sql } from 'drizzle-orm'
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './users.ts'

/** The secret is never stored: only its SHA-256 and a short display prefix (docs/api.md "Authentication"). */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull().default(''),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    limitMicros: bigint('limit_micros', { mode: 'bigint' }),
    spentMicros: bigint('spent_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    rpm: integer('rpm'),
    serviceMode: text('service_mode').notNull().default('performance'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt)],
)
