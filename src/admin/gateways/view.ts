// GET /api/admin/gateways (docs/operators.md "Models and gateways"): every gateway of the catalog
// with its routes and how it authenticates upstream; per gateway and route, the breaker as this instance sees it, how long a route
// still cools after a long 429, traffic over the last 5 and 60 minutes, and whether an operator
// switched the route off.
import { asc } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { gateways, modelRoutes, routeSwitches } from '../../db/schema/index.ts'
import { formatScaled } from '../../lib/money.ts'
import type { Breakers } from '../../routing/breakers.ts'
import type { Cooling } from '../../routing/cooling.ts'
import type { RouteLoad } from '../../routing/route-load.ts'
import { type RouteCost, routeCost } from '../route-cost.ts'
import { recentTraffic, type Traffic, type Window } from './traffic.ts'

/** How the gateway authenticates upstream: its catalog `auth` type, an API key, or nothing (never a secret or reference). */
const authKind = (g: { auth: Record<string, string> | null; apiKeyRef: string | null }) =>
  g.auth?.type ?? (g.apiKeyRef ? 'api-key' : 'none')

const EMPTY: Window = { calls: 0, errors: 0, errorRate: null, p50Ms: null }
const usd = (nano: bigint | null) => (nano === null ? null : Number(formatScaled(nano, 9, 9)))
const usdCost = (c: RouteCost) => ({
  input: usd(c.input),
  output: usd(c.output),
  cacheRead: usd(c.cacheRead),
  cacheWrite: usd(c.cacheWrite),
})

export interface ViewDeps {
  db: Db
  breakers: Pick<Breakers, 'health'>
  /** Routes resting after a long 429 (docs/failover.md "429 cools a route"). */
  cooling: Pick<Cooling, 'waitMs'>
  load: Pick<RouteLoad, 'inFlight'>
  inFlight: number
  now: number
}

export async function gatewaysView(deps: ViewDeps) {
  const [gws, routes, off, traffic] = await Promise.all([
    deps.db.select().from(gateways).orderBy(asc(gateways.id)),
    deps.db.select().from(modelRoutes).orderBy(asc(modelRoutes.modelId), asc(modelRoutes.position)),
    deps.db.select().from(routeSwitches),
    recentTraffic(deps.db, deps.now),
  ])
  const seen = (gateway: string, model: string | null) => traffic.find((t) => t.gateway === gateway && t.model === model)
  const windows = (t: Traffic | undefined) => ({ last5m: t?.last5m ?? EMPTY, last60m: t?.last60m ?? EMPTY })
  const items = gws.map((g) => {
    const own = routes.filter((r) => r.gatewayId === g.id)
    return {
      id: g.id,
      protocol: g.protocol,
      auth: authKind(g),
      enabled: g.enabled,
      breaker: deps.breakers.health(g.id, '').gateway,
      ...windows(seen(g.id, null)),
      routes: own.map((r) => {
        const health = deps.breakers.health(g.id, r.upstreamModel)
        const switched = off.find((s) => s.modelId === r.modelId && s.gatewayId === g.id && s.upstreamModel === r.upstreamModel)
        return {
          model: r.modelId,
          upstreamModel: r.upstreamModel,
          position: r.position,
          enabled: switched === undefined,
          disabledBy: switched?.disabledBy ?? null,
          breaker: health.route,
          nextProbeInMs: health.nextProbeInMs,
          coolingMs: deps.cooling.waitMs({ gateway: { id: g.id }, upstreamModel: r.upstreamModel }),
          inFlight: deps.load.inFlight(g.id, r.upstreamModel),
          cost: usdCost(routeCost(r.options)),
          ...windows(seen(g.id, r.modelId)),
        }
      }),
    }
  })
  return { items, inFlight: deps.inFlight, at: new Date(deps.now).toISOString() }
}
