// CATALOG_FILE (docs/api.md "Catalog file"): its schema, and the idempotent upsert at start.
import { Type as t, type Static } from '@sinclair/typebox'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { gateways, modelRoutes, models } from '../db/schema/index.ts'
import { numberToScaled } from '../lib/money.ts'
import { strictSchema } from '../lib/strict-schema.ts'
import { compile } from '../lib/validate.ts'
import { PolicyFile } from '../routing/policy.ts'

const Price = t.Union([t.Number({ minimum: 0 }), t.Null()])

export const CatalogFile = t.Object({
  gateways: t.Array(
    t.Object({
      id: t.String({ minLength: 1 }),
      protocol: t.Union([t.Literal('openai-chat'), t.Literal('anthropic-messages'), t.Literal('openai-responses')]),
      baseUrl: t.String({ pattern: '^https?://' }),
      apiKey: t.Optional(t.String()),
      timeoutMs: t.Optional(t.Integer({ minimum: 1, maximum: 600_000 })),
      enabled: t.Optional(t.Boolean()),
      policy: t.Optional(PolicyFile),
    }),
  ),
  models: t.Array(
    t.Object({
      id: t.String({ minLength: 1 }),
      name: t.String({ minLength: 1 }),
      description: t.Optional(t.String()),
      provider: t.String({ minLength: 1 }),
      family: t.Optional(t.String()),
      contextWindow: t.Integer({ minimum: 1 }),
      capabilities: t.Array(t.String()),
      pricing: t.Object({
        input: Price,
        output: Price,
        cacheRead: t.Optional(Price),
        cacheWrite: t.Optional(Price),
      }),
      routes: t.Array(
        t.Object({
          gateway: t.String({ minLength: 1 }),
          model: t.String({ minLength: 1 }),
          /** What the upstream charges, USD per 1M tokens (docs/operators.md "Reports"); absent: margin unknown. */
          cost: t.Optional(t.Object({ input: Price, output: Price, cacheRead: t.Optional(Price), cacheWrite: t.Optional(Price) })),
        }),
        { minItems: 1 },
      ),
      deprecated: t.Optional(t.Boolean()),
    }),
  ),
})
export type CatalogFile = Static<typeof CatalogFile>

export class CatalogFileError extends Error {}

/** Every object of the file is strict: a misspelt member (`apikey`, `enable`) is refused, not ignored. */
const validate = compile(strictSchema(CatalogFile))

/** USD per 1M tokens (JSON number) → nano-USD per 1M tokens, exactly. */
function price(v: number | null | undefined, where: string): bigint | null {
  if (v === null || v === undefined) return null
  const scaled = numberToScaled(v, 9)
  if (scaled === undefined) throw new CatalogFileError(`${where}: price ${v} has more than 9 decimals`)
  return scaled
}

/** The file, checked: one line naming the first wrong field (and the one meant, when close). */
export function parseCatalogFile(raw: unknown): CatalogFile {
  const checked = validate(raw)
  if (!checked.ok) {
    const first = checked.issues[0]!
    throw new CatalogFileError(`catalog: ${first.path === 'body' ? 'the file' : first.path}: ${first.message}`)
  }
  const json = checked.value
  const ids = new Set(json.gateways.map((g) => g.id))
  for (const m of json.models) {
    for (const r of m.routes)
      if (!ids.has(r.gateway)) throw new CatalogFileError(`catalog: model ${m.id} routes to unknown gateway ${r.gateway}`)
    // Checked here, before anything is written, rather than half-way through the upsert.
    for (const v of Object.values(m.pricing)) price(v, `catalog: model ${m.id}`)
  }
  return json
}

/** Reads and validates a catalog file; file-system, JSON and schema errors are thrown as they are. */
export async function readCatalogFile(path: string): Promise<CatalogFile> {
  return parseCatalogFile(await Bun.file(path).json())
}

export async function upsertCatalog(db: Db, file: CatalogFile): Promise<void> {
  await db.transaction(async (tx) => {
    for (const g of file.gateways) {
      const row = {
        protocol: g.protocol,
        baseUrl: g.baseUrl.replace(/\/+$/, ''),
        apiKeyRef: g.apiKey ?? null,
        timeoutMs: g.timeoutMs ?? 30_000,
        enabled: g.enabled ?? true,
        policy: g.policy ?? null,
        updatedAt: new Date(),
      }
      await tx
        .insert(gateways)
        .values({ id: g.id, ...row })
        .onConflictDoUpdate({ target: gateways.id, set: row })
    }
    for (const m of file.models) {
      const row = {
        name: m.name,
        description: m.description ?? '',
        provider: m.provider,
        family: m.family ?? '',
        contextWindow: m.contextWindow,
        capabilities: m.capabilities,
        priceInput: price(m.pricing.input, m.id),
        priceOutput: price(m.pricing.output, m.id),
        priceCacheRead: price(m.pricing.cacheRead, m.id),
        priceCacheWrite: price(m.pricing.cacheWrite, m.id),
        deprecated: m.deprecated ?? false,
        updatedAt: sql`now()`,
      }
      await tx
        .insert(models)
        .values({ id: m.id, ...row })
        .onConflictDoUpdate({ target: models.id, set: row })
      await tx.delete(modelRoutes).where(eq(modelRoutes.modelId, m.id))
      await tx.insert(modelRoutes).values(
        m.routes.map((r, position) => ({
          modelId: m.id,
          position,
          gatewayId: r.gateway,
          upstreamModel: r.model,
          costInput: price(r.cost?.input, `${m.id} route cost`),
          costOutput: price(r.cost?.output, `${m.id} route cost`),
          costCacheRead: price(r.cost?.cacheRead, `${m.id} route cost`),
          costCacheWrite: price(r.cost?.cacheWrite, `${m.id} route cost`),
        })),
      )
    }
  })
}
