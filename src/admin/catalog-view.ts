// GET /api/admin/catalog (docs/api.md "Admin API"): every model of the running catalog as the
// router sees it — availability, fallbacks, and each servable route with its gateway, upstream
// model, priority, weight and limits (docs/failover.md "Priorities and weights"). Secrets, header
// values and query values never appear.
import { Catalog, type CatalogModel } from '../catalog/catalog.ts'

export function catalogView(models: CatalogModel[]) {
  const items = [...models]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((m) => ({
      id: m.id,
      available: Catalog.available(m),
      deprecated: m.deprecated,
      contextWindow: m.contextWindow,
      fallbacks: m.fallbacks,
      routes: m.routes.map((r, i) => ({
        gateway: r.gateway.id,
        protocol: r.gateway.protocol,
        model: r.upstreamModel,
        priority: r.priority ?? i,
        weight: r.weight ?? 1,
        rpm: r.rpm ?? null,
        tpm: r.tpm ?? null,
        headers: Object.keys(r.gateway.headers ?? {}),
        query: Object.keys(r.gateway.query ?? {}),
      })),
    }))
  return { items, nextCursor: null }
}
