// Search, filter, sort and page the catalog. Pure over the in-memory snapshot the gateway
// already serves from: `q` is plain substring matching, so no user text ever reaches SQL (no
// injection, no LIKE wildcards to escape). Only available, non-deprecated models are listed.
import { gte, sql } from 'drizzle-orm'
import { Catalog, type CatalogModel } from '../../catalog/catalog.ts'
import { requestLogs } from '../../db/schema/index.ts'
import type { ConsoleDeps } from '../deps.ts'
import type { CatalogItem, CatalogPage, CatalogQuery, Sort } from './model.ts'

/** nano-USD per 1M tokens → USD per 1M tokens, for display. */
const perMillion = (p: bigint | null) => (p === null ? null : Number(p) / 1e9)
/** Ordering price: input + output per 1M tokens (exact, in nano-USD). */
const blended = (m: CatalogModel) => (m.pricing.input ?? 0n) + (m.pricing.output ?? 0n)
const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)

export function catalogItem(m: CatalogModel): CatalogItem {
  const p = m.pricing
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    provider: m.provider,
    family: m.family,
    contextWindow: m.contextWindow,
    capabilities: m.capabilities,
    pricing: {
      input: perMillion(p.input),
      output: perMillion(p.output),
      cacheRead: perMillion(p.cacheRead),
      cacheWrite: perMillion(p.cacheWrite),
      unit: '1M_tokens',
      currency: 'USD',
    },
    created: m.created,
  }
}

export function searchCatalog(models: CatalogModel[], query: CatalogQuery, popularity: ReadonlyMap<string, number>): CatalogPage {
  const q = query.q?.trim().toLowerCase() || undefined
  const same = (a: string, b: string | undefined) => b === undefined || b === '' || a.toLowerCase() === b.toLowerCase()
  const hits = models.filter(
    (m) =>
      Catalog.available(m) &&
      (!q || m.name.toLowerCase().includes(q) || m.description.toLowerCase().includes(q)) &&
      same(m.provider, query.provider) &&
      same(m.family, query.family) &&
      (!query.capability || m.capabilities.some((c) => same(c, query.capability))),
  )
  const byName = (a: CatalogModel, b: CatalogModel) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)
  const order: Record<Sort, (a: CatalogModel, b: CatalogModel) => number> = {
    popular: (a, b) => (popularity.get(b.id) ?? 0) - (popularity.get(a.id) ?? 0) || byName(a, b),
    newest: (a, b) => b.created - a.created || byName(a, b),
    'price-asc': (a, b) => cmp(blended(a), blended(b)) || byName(a, b),
    'price-desc': (a, b) => cmp(blended(b), blended(a)) || byName(a, b),
    'context-desc': (a, b) => b.contextWindow - a.contextWindow || byName(a, b),
    'name-asc': byName,
  }
  hits.sort(order[query.sort ?? 'popular'])
  const page = query.page ?? 1
  const pageSize = query.pageSize ?? 20
  const start = (page - 1) * pageSize
  return {
    items: hits.slice(start, start + pageSize).map(catalogItem),
    total: hits.length,
    page,
    pageSize,
    totalPages: Math.ceil(hits.length / pageSize),
  }
}

const POPULARITY_TTL_MS = 60_000
const WEEK_MS = 7 * 24 * 3600 * 1000

/** Requests per model over the last 7 days, read at most once a minute per instance. */
export function popularity(deps: Pick<ConsoleDeps, 'db' | 'now'>): () => Promise<ReadonlyMap<string, number>> {
  let cached: { at: number; counts: Map<string, number> } | undefined
  return async () => {
    const now = deps.now()
    if (cached && now - cached.at < POPULARITY_TTL_MS) return cached.counts
    const rows = await deps.db
      .select({ model: requestLogs.model, n: sql<number>`count(*)::int` })
      .from(requestLogs)
      .where(gte(requestLogs.createdAt, new Date(now - WEEK_MS)))
      .groupBy(requestLogs.model)
    cached = { at: now, counts: new Map(rows.map((r) => [r.model, r.n])) }
    return cached.counts
  }
}
