import { sql } from 'drizzle-orm'
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './users.ts'

/**
 * What the operator set on a key through the admin API, member by member (absent = not set by
 * the operator): the owner's changes are held to these (src/auth/operator-limits.ts).
 */
export interface OperatorLimits {
  limitMicros?: string
  rpm?: number
  expiresAt?: string
  models?: string[]
  ipAllowlist?: string[]
  tpm?: number
  maxConcurrent?: number
  limitReset?: 'daily' | 'weekly' | 'monthly' | null
}

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
    /** Public model slugs this key may call, `*` globs allowed; null = every model (docs/api.md "Key settings"). */
    models: text('models').array(),
    /** CIDR blocks the client address must be in; null = anywhere. */
    ipAllowlist: text('ip_allowlist').array(),
    /** Tokens per minute (prompt estimate + output cap at admission, billed tokens at settlement); null = none. */
    tpm: integer('tpm'),
    /** Calls of the key in flight at once, across instances; null = none. */
    maxConcurrent: integer('max_concurrent'),
    /** `daily` | `weekly` | `monthly` (UTC): `limit` counts spend from the period's start; null = lifetime. */
    limitReset: text('limit_reset').$type<'daily' | 'weekly' | 'monthly'>(),
    /**
     * The limits the operator set through the admin API (docs/console.md "API keys"): the owner
     * may tighten them, never lift or loosen them. null = none set.
     */
    operatorLimits: jsonb('operator_limits').$type<OperatorLimits>(),
    serviceMode: text('service_mode').notNull().default('performance'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt)],
)
