import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Every change made through the admin API (docs/operators.md "Audit log"): who (`actor`: an
 * admin user's id, or `token` for the ADMIN_TOKEN), what (`action` on `target`) and the
 * before/after of what changed. Written in the change's own request, never edited.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: text('id').primaryKey(),
    actor: text('actor').notNull(),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    target: text('target'),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_audit_at_idx').on(t.at, t.id), index('admin_audit_target_idx').on(t.target, t.at)],
)

/**
 * Routes an operator switched off at run time (docs/operators.md "Models and gateways"): every
 * instance's catalog refresh leaves them out; a catalog reload deletes every row.
 */
export const routeSwitches = pgTable(
  'route_switches',
  {
    modelId: text('model_id').notNull(),
    gatewayId: text('gateway_id').notNull(),
    upstreamModel: text('upstream_model').notNull(),
    disabledBy: text('disabled_by').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.gatewayId, t.upstreamModel] })],
)

/**
 * Per UTC day, user, model and gateway: what request_logs holds, summed by the ledger writer in
 * the statement that inserts the logs (billing/ledger-batch.ts), counting only rows it inserted.
 * Reports read this instead of scanning request_logs (docs/operators.md "Reports").
 */
export const requestDaily = pgTable(
  'request_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    userId: text('user_id').notNull(),
    model: text('model').notNull(),
    gateway: text('gateway').notNull(),
    calls: bigint('calls', { mode: 'bigint' }).notNull(),
    errors: bigint('errors', { mode: 'bigint' }).notNull(),
    costMicros: bigint('cost_micros', { mode: 'bigint' }).notNull(),
    inputTokens: bigint('input_tokens', { mode: 'bigint' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'bigint' }).notNull(),
    cacheReadTokens: bigint('cache_read_tokens', { mode: 'bigint' }).notNull(),
    cacheWriteTokens: bigint('cache_write_tokens', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.userId, t.model, t.gateway] })],
)

/** Per UTC day and model: calls by latency bucket (reports/latency.ts), for p50/p95. */
export const latencyDaily = pgTable(
  'latency_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    model: text('model').notNull(),
    bucket: integer('bucket').notNull(),
    calls: bigint('calls', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.model, t.bucket] })],
)
