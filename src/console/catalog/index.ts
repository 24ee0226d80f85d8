// GET /api/public/models (docs/console.md "Public catalog"): no auth, the /api/* IP limit applies. Cacheable by a CDN
// (Cache-Control public with s-maxage) and revalidatable (ETag → 304).
import { Elysia } from 'elysia'
import { sha256Hex } from '../../lib/ids.ts'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext } from '../http/context.ts'
import { CatalogPage, CatalogQuery } from './model.ts'
import { popularity, searchCatalog } from './service.ts'

const CACHE_CONTROL = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600'

export function publicCatalogFeature(deps: ContextDeps & Pick<ConsoleDeps, 'catalog'>) {
  const counts = popularity(deps)
  return new Elysia({ prefix: '/api/public' }).use(consoleContext(deps)).get(
    '/models',
    async ({ query, request, set }) => {
      const result = searchCatalog(deps.catalog.all(), query, (query.sort ?? 'popular') === 'popular' ? await counts() : new Map())
      const body = JSON.stringify(result)
      const etag = `W/"${sha256Hex(body).slice(0, 32)}"`
      const headers = { ...(set.headers as Record<string, string>), 'cache-control': CACHE_CONTROL, etag, vary: 'Accept-Encoding' }
      if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
      return new Response(body, { headers: { ...headers, 'content-type': 'application/json' } })
    },
    {
      query: CatalogQuery,
      response: { 200: CatalogPage },
      detail: { tags: ['catalog'], summary: 'The public model catalog: search, filters, sorts, pages (no auth)' },
    },
  )
}
