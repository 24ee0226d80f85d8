// The in-process catalog snapshot the hot path reads (no database on a warm request). Reloaded
// from Postgres on an interval, so catalog changes reach every instance.
import { asc } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { gateways, modelRoutes, models, routeSwitches } from '../db/schema/index.ts'
import { isPriced, type Pricing } from '../billing/pricing.ts'
import type { GatewayProtocol, Route } from '../core/gateway.ts'
import { resolvePolicy, type PolicyFile } from '../routing/policy.ts'

export interface CatalogModel {
  id: string
  name: string
  description: string
  provider: string
  family: string
  contextWindow: number
  capabilities: string[]
  pricing: Pricing
  deprecated: boolean
  /** epoch seconds */
  created: number
  /** Servable routes only (enabled gateway of a protocol this build speaks), in catalog order. */
  routes: Route[]
}

export type Lookup = { ok: true; model: CatalogModel } | { ok: false; reason: 'unknown' | 'unavailable' }

export class Catalog {
  private byId = new Map<string, CatalogModel>()
  private unresolved: { id: string; ref: string }[] = []

  constructor(
    private readonly db: Db,
    private readonly resolveSecret: (ref: string | undefined) => string | undefined,
    private readonly protocols: ReadonlySet<GatewayProtocol>,
  ) {}

  async refresh(): Promise<void> {
    const [gw, ms, rs, off] = await Promise.all([
      this.db.select().from(gateways),
      this.db.select().from(models),
      this.db.select().from(modelRoutes).orderBy(asc(modelRoutes.modelId), asc(modelRoutes.position)),
      this.db.select().from(routeSwitches),
    ])
    // Routes an operator switched off at run time (docs/operators.md "Models and gateways").
    const switchedOff = new Set(off.map((s) => `${s.modelId}\n${s.gatewayId}\n${s.upstreamModel}`))
    const gateById = new Map(
      gw.map((g) => [
        g.id,
        {
          id: g.id,
          protocol: g.protocol,
          baseUrl: g.baseUrl,
          apiKey: this.resolveSecret(g.apiKeyRef ?? undefined),
          timeoutMs: g.timeoutMs,
          enabled: g.enabled,
          policy: resolvePolicy(g.policy as PolicyFile | null),
        },
      ]),
    )
    this.unresolved = gw
      .filter((g) => g.enabled && g.apiKeyRef?.startsWith('env:') && gateById.get(g.id)?.apiKey === undefined)
      .map((g) => ({ id: g.id, ref: g.apiKeyRef! }))
    const next = new Map<string, CatalogModel>()
    for (const m of ms) {
      next.set(m.id, {
        id: m.id,
        name: m.name,
        description: m.description,
        provider: m.provider,
        family: m.family,
        contextWindow: m.contextWindow,
        capabilities: m.capabilities,
        pricing: { input: m.priceInput, output: m.priceOutput, cacheRead: m.priceCacheRead, cacheWrite: m.priceCacheWrite },
        deprecated: m.deprecated,
        created: Math.floor(m.createdAt.getTime() / 1000),
        routes: [],
      })
    }
    for (const r of rs) {
      const gateway = gateById.get(r.gatewayId)
      const model = next.get(r.modelId)
      if (switchedOff.has(`${r.modelId}\n${r.gatewayId}\n${r.upstreamModel}`)) continue
      if (model && gateway?.enabled && this.protocols.has(gateway.protocol)) model.routes.push({ gateway, upstreamModel: r.upstreamModel })
    }
    this.byId = next
  }

  /** Enabled gateways whose `env:NAME` key reference names a variable unset in this process. */
  unresolvedSecrets(): readonly { id: string; ref: string }[] {
    return this.unresolved
  }

  /** Available = not deprecated, priced, and at least one servable route. */
  static available(m: CatalogModel): boolean {
    return !m.deprecated && isPriced(m.pricing) && m.routes.length > 0
  }

  lookup(slug: string): Lookup {
    const model = this.byId.get(slug)
    if (!model) return { ok: false, reason: 'unknown' }
    return Catalog.available(model) ? { ok: true, model } : { ok: false, reason: 'unavailable' }
  }

  /** Every model of the snapshot, available or not. */
  all(): CatalogModel[] {
    return [...this.byId.values()]
  }

  /** Available models, sorted by id. */
  list(): CatalogModel[] {
    return [...this.byId.values()].filter(Catalog.available).sort((a, b) => a.id.localeCompare(b.id))
  }
}
