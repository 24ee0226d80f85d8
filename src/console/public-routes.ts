// GET /api/public/models: no auth; cacheable by a CDN. Popularity (requests in the last 7 days)
// is read from request_logs at most once a minute per instance.
import { Elysia } from 'elysia'
import { gte, sql } from 'drizzle-orm'
import { requestLogs } from '../db/schema/index.ts'
import type { InferenceDeps } from '../inference/deps.ts'
import { parseCatalogQuery, searchCatalog } from './public-catalog.ts'

const POPULARITY_TTL_MS = 60_000

export function publicRoutes(deps: InferenceDeps) {
  let popularity: { at: number; counts: Map<string, number> } | undefined
  const popular = async () => {
    if (popularity && Date.now() - popularity.at < POPULARITY_TTL_MS) return popularity.counts
    const rows = await deps.db
      .select({ model: requestLogs.model, n: sql<number>`count(*)::int` })
      .from(requestLogs)
      .where(gte(requestLogs.createdAt, new Date(Date.now() - 7 * 24 * 3600 * 1000)))
      .groupBy(requestLogs.model)
    popularity = { at: Date.now(), counts: new Map(rows.map((r) => [r.model, r.n])) }
    return popularity.counts
  }
  return new Elysia({ prefix: '/api/public' }).get('/models', async ({ query, set }) => {
    const q = parseCatalogQuery(query as Record<string, string | undefined>)
    const counts = q.sort === 'popular' ? await popular() : new Map<string, number>()
    set.headers['cache-control'] = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600'
    return searchCatalog(deps.catalog.all(), q, counts)
  })
}
