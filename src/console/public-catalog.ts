// GET /api/public/models (SPEC): search, filter, sort and page the available catalog. Pure
// over the in-memory snapshot, so `q` is plain substring matching — nothing reaches SQL.
import { Catalog, type CatalogModel } from '../catalog/catalog.ts'
import { GatewayError } from '../core/errors.ts'

export const SORTS = ['popular', 'newest', 'price-asc', 'price-desc', 'context-desc', 'name-asc'] as const
export type Sort = (typeof SORTS)[number]

export interface CatalogQuery {
  q?: string
  provider?: string
  capability?: string
  family?: string
  sort: Sort
  page: number
  pageSize: number
}

export function parseCatalogQuery(raw: Record<string, string | undefined>): CatalogQuery {
  const int = (name: string, fallback: number, min: number, max: number) => {
    const v = raw[name]
    if (v === undefined || v === '') return fallback
    const n = Number(v)
    if (!Number.isInteger(n) || n < min || n > max) throw new GatewayError('BAD_REQUEST', `${name} must be an integer from ${min} to ${max}.`)
    return n
  }
  const sort = (raw.sort ?? 'popular') as Sort
  if (!SORTS.includes(sort)) throw new GatewayError('BAD_REQUEST', `sort must be one of ${SORTS.join(', ')}.`)
  const text = (name: string) => {
    const v = raw[name]?.trim()
    if (v && v.length > 200) throw new GatewayError('BAD_REQUEST', `${name} is too long.`)
    return v || undefined
  }
  return { q: text('q'), provider: text('provider'), capability: text('capability'), family: text('family'), sort, page: int('page', 1, 1, 1_000_000), pageSize: int('pageSize', 20, 1, 100) }
}

/** USD per 1M tokens for display, from nano-USD. */
const perMillion = (p: bigint | null) => (p === null ? null : Number(p) / 1e9)
const blended = (m: CatalogModel) => Number((m.pricing.input ?? 0n) + (m.pricing.output ?? 0n))

export function catalogItem(m: CatalogModel) {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    provider: m.provider,
    family: m.family,
    contextWindow: m.contextWindow,
    capabilities: m.capabilities,
    pricing: { input: perMillion(m.pricing.input), output: perMillion(m.pricing.output), cacheRead: perMillion(m.pricing.cacheRead), cacheWrite: perMillion(m.pricing.cacheWrite), unit: '1M_tokens', currency: 'USD' },
    created: m.created,
  }
}

export function searchCatalog(models: CatalogModel[], query: CatalogQuery, popularity: ReadonlyMap<string, number>) {
  const q = query.q?.toLowerCase()
  const eqi = (a: string, b: string | undefined) => b === undefined || a.toLowerCase() === b.toLowerCase()
  const hits = models.filter(
    (m) =>
      Catalog.available(m) &&
      (!q || m.name.toLowerCase().includes(q) || m.description.toLowerCase().includes(q)) &&
      eqi(m.provider, query.provider) &&
      eqi(m.family, query.family) &&
      (query.capability === undefined || m.capabilities.some((c) => eqi(c, query.capability))),
  )
  const byName = (a: CatalogModel, b: CatalogModel) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)
  const order: Record<Sort, (a: CatalogModel, b: CatalogModel) => number> = {
    popular: (a, b) => (popularity.get(b.id) ?? 0) - (popularity.get(a.id) ?? 0) || byName(a, b),
    newest: (a, b) => b.created - a.created || byName(a, b),
    'price-asc': (a, b) => blended(a) - blended(b) || byName(a, b),
    'price-desc': (a, b) => blended(b) - blended(a) || byName(a, b),
    'context-desc': (a, b) => b.contextWindow - a.contextWindow || byName(a, b),
    'name-asc': byName,
  }
  hits.sort(order[query.sort])
  const start = (query.page - 1) * query.pageSize
  return {
    items: hits.slice(start, start + query.pageSize).map(catalogItem),
    total: hits.length,
    page: query.page,
    pageSize: query.pageSize,
    totalPages: Math.ceil(hits.length / query.pageSize),
  }
}
