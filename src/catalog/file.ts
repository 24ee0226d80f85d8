// CATALOG_FILE (docs/api.md "Catalog file"): its schema, and the idempotent upsert at start.
import { Type as t, type Static } from '@sinclair/typebox'
import { getTableColumns, inArray, type SQL, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client.ts'
import { gateways, modelRoutes, models } from '../db/schema/index.ts'
import { closestName } from '../lib/closest-name.ts'
import { numberToScaled } from '../lib/money.ts'
import { strictSchema } from '../lib/strict-schema.ts'
import { compile } from '../lib/validate.ts'
import { PolicyFile } from '../routing/policy.ts'
import { serves } from './catalog.ts'
import { AuthFile, authShapeProblem } from './gateway-auth.ts'

const Price = t.Union([t.Number({ minimum: 0 }), t.Null()])
const Prices = t.Object({ input: Price, output: Price, cacheRead: t.Optional(Price), cacheWrite: t.Optional(Price) })
/** Gateway `headers` / `query`: names to values; a value may be `env:NAME` (docs/providers.md "Headers and query"). */
const Strings = t.Record(t.String({ minLength: 1 }), t.String())

/** A route (docs/failover.md "Priorities and weights", "Upstream limits"); every field but the first two optional. */
export const RouteFile = t.Object({
  gateway: t.String({ minLength: 1 }),
  model: t.String({ minLength: 1 }),
  priority: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000 })),
  weight: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000 })),
  rpm: t.Optional(t.Integer({ minimum: 1 })),
  tpm: t.Optional(t.Integer({ minimum: 1 })),
  cost: t.Optional(Prices),
})
export type RouteFile = Static<typeof RouteFile>

export const CatalogFile = t.Object({
  gateways: t.Array(
    t.Object({
      id: t.String({ minLength: 1 }),
      protocol: t.Union([
        t.Literal('openai-chat'),
        t.Literal('anthropic-messages'),
        t.Literal('openai-responses'),
        t.Literal('bedrock-anthropic'),
        t.Literal('bedrock-converse'),
        t.Literal('vertex-anthropic'),
      ]),
      baseUrl: t.String({ pattern: '^https?://' }),
      apiKey: t.Optional(t.String()),
      timeoutMs: t.Optional(t.Integer({ minimum: 1, maximum: 600_000 })),
      enabled: t.Optional(t.Boolean()),
      policy: t.Optional(PolicyFile),
      headers: t.Optional(Strings),
      query: t.Optional(Strings),
      /** Cloud auth (docs/providers.md "Cloud auth"); absent: apiKey as the protocol sends it. */
      auth: t.Optional(AuthFile),
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
      kind: t.Optional(t.Union([t.Literal('chat'), t.Literal('embedding')])),
      capabilities: t.Array(t.String()),
      pricing: t.Object({
        input: Price,
        /** Required for a chat model; an embedding model has none (absent or null). */
        output: t.Optional(Price),
        cacheRead: t.Optional(Price),
        cacheWrite: t.Optional(Price),
      }),
      routes: t.Array(RouteFile, { minItems: 1 }),
      deprecated: t.Optional(t.Boolean()),
      /** Public slugs tried after every route failed (docs/failover.md "Model fallbacks"). */
      fallbacks: t.Optional(t.Array(t.String({ minLength: 1 }), { maxItems: 8 })),
    }),
  ),
})
export type CatalogFile = Static<typeof CatalogFile>

export class CatalogFileError extends Error {}

/** Every object of the file is strict: a misspelt member (`apikey`, `enable`) is refused, not ignored. */
const validate = compile(strictSchema(CatalogFile))

/** USD per 1M tokens (JSON number) → nano-USD per 1M tokens, exactly. */
export function price(v: number | null | undefined, where: string): bigint | null {
  if (v === null || v === undefined) return null
  const scaled = numberToScaled(v, 9)
  if (scaled === undefined) throw new CatalogFileError(`${where}: price ${v} has more than 9 decimals`)
  return scaled
}

/** The file, checked: one line naming each wrong field (and the one meant, when close). */
export function parseCatalogFile(raw: unknown): CatalogFile {
  const checked = validate(raw)
  if (!checked.ok)
    throw new CatalogFileError(
      `catalog: ${checked.issues.map((i) => `${i.path === 'body' ? 'the file' : i.path}: ${i.message}`).join('; ')}`,
    )
  const json = checked.value
  for (const g of json.gateways) {
    const problem = authShapeProblem(g)
    if (problem) throw new CatalogFileError(`catalog: ${problem}`)
  }
  const protocols = new Map(json.gateways.map((g) => [g.id, g.protocol]))
  const ids = json.models.map((m) => m.id)
  for (const [i, m] of json.models.entries()) {
    for (const r of m.routes) {
      const protocol = protocols.get(r.gateway)
      if (!protocol) throw new CatalogFileError(`catalog: model ${m.id} routes to unknown gateway ${r.gateway}`)
      if (!serves(m.kind ?? 'chat', protocol))
        throw new CatalogFileError(
          `catalog: embedding model ${m.id} routes to gateway ${r.gateway} (${protocol}); embeddings need an openai-chat gateway`,
        )
      for (const v of Object.values(r.cost ?? {})) price(v, `catalog: model ${m.id} route cost`)
    }
    if (m.fallbacks?.includes(m.id)) throw new CatalogFileError(`catalog: model ${m.id} lists itself in fallbacks`)
    checkFallbacks(m, i, ids)
    checkKindPricing(m, i)
    // Checked here, before anything is written, rather than half-way through the upsert.
    for (const v of Object.values(m.pricing)) price(v, `catalog: model ${m.id}`)
  }
  return json
}

/** Each fallback is a model of this file (docs/failover.md "Model fallbacks"); a slug naming none is a typo. */
function checkFallbacks(m: CatalogFile['models'][number], i: number, ids: string[]): void {
  for (const [j, slug] of (m.fallbacks ?? []).entries()) {
    if (ids.includes(slug)) continue
    const meant = closestName(slug, ids)
    throw new CatalogFileError(
      `catalog: models[${i}].fallbacks[${j}]: ${slug} is no model of this file${meant ? `; did you mean ${meant}?` : ''}`,
    )
  }
}

/** A chat model names its output price (null: not priced yet); an embedding model has none. */
function checkKindPricing(m: CatalogFile['models'][number], i: number): void {
  if (m.kind === 'embedding' && m.pricing.output != null)
    throw new CatalogFileError(
      `catalog: embedding model ${m.id}: pricing.output must be absent or null (embeddings are billed per input token)`,
    )
  if (m.kind !== 'embedding' && m.pricing.output === undefined)
    throw new CatalogFileError(
      `catalog: models[${i}].pricing.output: Expected required property (a chat model's output price; null when not priced yet)`,
    )
}

/** Reads and validates a catalog file; file-system, JSON and schema errors are thrown as they are. */
export async function readCatalogFile(path: string): Promise<CatalogFile> {
  return parseCatalogFile(await Bun.file(path).json())
}

/**
 * The file's gateways and models upserted, and each model's routes replaced, in one transaction
 * of four statements (one per table, and the routes' delete): a start's cost is per statement
 * (docs/testing.md "Start time"). An id named twice in the file is written as its last entry, as
 * one upsert per entry did.
 */
export async function upsertCatalog(db: Db, file: CatalogFile): Promise<void> {
  const gatewayRows = lastById(file.gateways).map(gatewayRow)
  const fileModels = lastById(file.models)
  await db.transaction(async (tx) => {
    if (gatewayRows.length > 0)
      await tx
        .insert(gateways)
        .values(gatewayRows)
        .onConflictDoUpdate({ target: gateways.id, set: proposed(gateways, gatewayRows[0]!) })
    if (fileModels.length === 0) return
    const modelRows = fileModels.map(modelRow)
    await tx
      .insert(models)
      .values(modelRows)
      .onConflictDoUpdate({ target: models.id, set: proposed(models, modelRows[0]!) })
    await tx.delete(modelRoutes).where(
      inArray(
        modelRoutes.modelId,
        fileModels.map((m) => m.id),
      ),
    )
    await tx.insert(modelRoutes).values(
      fileModels.flatMap((m) =>
        m.routes.map((r, position) => ({
          modelId: m.id,
          position,
          gatewayId: r.gateway,
          upstreamModel: r.model,
          options: routeOptions(r),
        })),
      ),
    )
  })
}

const lastById = <T extends { id: string }>(entries: T[]): T[] => [...new Map(entries.map((e) => [e.id, e])).values()]

/** An upsert's update: every member of `row` but the id set to the value its insert proposed (Postgres's `excluded` row). */
function proposed(table: PgTable, row: Record<string, unknown>): Record<string, SQL> {
  const columns = getTableColumns(table)
  return Object.fromEntries(
    Object.keys(row)
      .filter((member) => member !== 'id')
      .map((member) => [member, sql.raw(`excluded."${columns[member]!.name}"`)]),
  )
}

function gatewayRow(g: CatalogFile['gateways'][number]) {
  return {
    id: g.id,
    protocol: g.protocol,
    baseUrl: g.baseUrl.replace(/\/+$/, ''),
    apiKeyRef: g.apiKey ?? null,
    timeoutMs: g.timeoutMs ?? 30_000,
    enabled: g.enabled ?? true,
    policy: g.policy ?? null,
    headers: g.headers ?? null,
    query: g.query ?? null,
    auth: g.auth ?? null,
    updatedAt: new Date(),
  }
}

function modelRow(m: CatalogFile['models'][number]) {
  return {
    id: m.id,
    name: m.name,
    description: m.description ?? '',
    provider: m.provider,
    family: m.family ?? '',
    contextWindow: m.contextWindow,
    kind: m.kind ?? 'chat',
    capabilities: m.capabilities,
    priceInput: price(m.pricing.input, m.id),
    priceOutput: price(m.pricing.output, m.id),
    priceCacheRead: price(m.pricing.cacheRead, m.id),
    priceCacheWrite: price(m.pricing.cacheWrite, m.id),
    deprecated: m.deprecated ?? false,
    fallbacks: m.fallbacks ?? null,
    updatedAt: sql`now()`,
  }
}

/** A route's optional fields as stored (null when it has none: such a route behaves as before). */
function routeOptions(r: RouteFile): Omit<RouteFile, 'gateway' | 'model'> | null {
  const { gateway: _g, model: _m, ...rest } = r
  return Object.keys(rest).length > 0 ? rest : null
}
