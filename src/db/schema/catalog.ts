import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

import type { GatewayProtocol, ModelKind } from '../../core/gateway.ts'

export const gateways = pgTable('gateways', {
  id: text('id').primaryKey(),
  protocol: text('protocol').$type<GatewayProtocol>().notNull(),
  baseUrl: text('base_url').notNull(),
  /** "env:NAME" reference or literal; resolved at start, never logged. */
  apiKeyRef: text('api_key_ref'),
  timeoutMs: integer('timeout_ms').notNull().default(30000),
  enabled: boolean('enabled').notNull().default(true),
  /** The catalog's failover policy for this gateway as written (docs/failover.md); null = defaults. */
  policy: jsonb('policy').$type<Record<string, unknown>>(),
  /** Sent on every upstream call; values may be "env:NAME" references (docs/providers.md). */
  headers: jsonb('headers').$type<Record<string, string>>(),
  query: jsonb('query').$type<Record<string, string>>(),
  /** Upstream auth as written in the catalog file (docs/providers.md "Cloud auth"); null = `apiKeyRef` as the protocol sends it. */
  auth: jsonb('auth').$type<Record<string, string>>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Prices are nano-USD per 1M tokens (bigint); null means "no price yet". */
export const models = pgTable('models', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  provider: text('provider').notNull(),
  family: text('family').notNull().default(''),
  contextWindow: integer('context_window').notNull(),
  /** `chat` (the three chat protocols) or `embedding` (POST /v1/embeddings; input price only). */
  kind: text('kind').$type<ModelKind>().notNull().default('chat'),
  capabilities: jsonb('capabilities').$type<string[]>().notNull(),
  priceInput: bigint('price_input', { mode: 'bigint' }),
  priceOutput: bigint('price_output', { mode: 'bigint' }),
  priceCacheRead: bigint('price_cache_read', { mode: 'bigint' }),
  priceCacheWrite: bigint('price_cache_write', { mode: 'bigint' }),
  deprecated: boolean('deprecated').notNull().default(false),
  /** Public slugs tried after every route failed (docs/failover.md "Model fallbacks"). */
  fallbacks: jsonb('fallbacks').$type<string[]>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const modelRoutes = pgTable(
  'model_routes',
  {
    modelId: text('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    gatewayId: text('gateway_id').notNull(),
    upstreamModel: text('upstream_model').notNull(),
    /** priority, weight, rpm, tpm, cost as the catalog wrote them; null = none. */
    options: jsonb('options').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.position] })],
)
