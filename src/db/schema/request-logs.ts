import { sql } from 'drizzle-orm'
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import type { UpstreamAttempt } from '../../core/call-end.ts'

/** Index parameters of a btree whose keys are all distinct. */
const UNIQUE_KEYS = { deduplicate_items: false }

/**
 * One row per authenticated gateway call; id is the request id (x-request-id).
 * Partitioned by month on created_at (migration *_request_logs_partitioned, which drizzle
 * cannot express): the primary key must include the partition key, so it is (id, created_at).
 * A record's created_at comes from the record itself, so a redelivered record still collides.
 */
export const requestLogs = pgTable(
  'request_logs',
  {
    id: text('id').notNull(),
    userId: text('user_id').notNull(),
    keyId: text('key_id').notNull(),
    model: text('model').notNull(),
    gateway: text('gateway'),
    protocol: text('protocol').notNull(),
    stream: boolean('stream').notNull(),
    status: integer('status').notNull(),
    errorCode: text('error_code'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
    cacheWriteTokens: integer('cache_write_tokens').notNull().default(0),
    reasoningTokens: integer('reasoning_tokens').notNull().default(0),
    costMicros: bigint('cost_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    usageSource: text('usage_source').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** The candidate models of a call that had more than one, comma-separated in order (docs/failover.md "Model fallbacks"). */
    models: text('models'),
    /** Whose failure ended the call: `upstream`, `tollgate`, or null (none: completed or the client's). */
    fault: text('fault'),
    /** Every upstream attempt in order ({gateway, model, upstreamModel, outcome, status?, failure?, ms}) when one failed; else null. */
    attempts: jsonb('attempts').$type<UpstreamAttempt[]>(),
    /**
     * The usage ledger entry that billed this call (docs/api.md "Ledger"); null when it cost
     * nothing, and on rows written before usage entries covered a batch (their entry is the
     * one whose request_id is this row's id).
     */
    ledgerEntryId: text('ledger_entry_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    // Each index and the queries it serves: docs/scaling.md "Indexes and the queries they serve".
    // Their keys end with the id, so no two entries are equal: deduplication would only cost
    // each full leaf page a pass that finds nothing to merge (docs/scaling.md "The writer's statement").
    // The console's history, page by page, the calls of a usage entry, the status filter.
    index('request_logs_user_created_idx').on(t.userId, t.createdAt, t.id).with(UNIQUE_KEYS),
    // The history's key filter, a key's spend in a period (billing/period-spend.ts).
    index('request_logs_user_key_created_idx').on(t.userId, t.keyId, t.createdAt, t.id).with(UNIQUE_KEYS),
    // The history's model filter.
    index('request_logs_user_model_created_idx').on(t.userId, t.model, t.createdAt, t.id).with(UNIQUE_KEYS),
    // Time ranges of every user: the gateway view's last hour, the catalog's week, retention.
    // Rows arrive in time order, so a BRIN summary per 32 pages serves them at a tiny cost.
    index('request_logs_created_brin').using('brin', t.createdAt).with({ pages_per_range: 32 }),
  ],
)
