// The order a call tries a model's routes in (docs/failover.md "Priorities and weights"): by
// priority, lower first (a route without one has its position, so a catalog without priorities
// keeps its order); within one priority the first route is picked by a smooth weighted rotation
// and the rest follow in catalog order. The rotation is deterministic — over any run of
// Σweights calls each route leads exactly `weight` times, evenly spread (nginx's smooth
// weighted round-robin) — and lives per instance: N instances behind a balancer each keep the
// shares exactly, so their sum does too.
import type { Route } from '../core/gateway.ts'

export const routeId = (r: Route) => `${r.gateway.id}|${r.upstreamModel}`

/** `routes` with the one of id `preferred` first (a warm prompt cache), the rest as they were. */
export function preferRoute(routes: Route[], preferred: string): Route[] {
  const i = routes.findIndex((r) => routeId(r) === preferred)
  return i <= 0 ? routes : [routes[i]!, ...routes.slice(0, i), ...routes.slice(i + 1)]
}

/** Routes grouped by priority, lowest first; catalog order within each. */
export function tiers(routes: readonly Route[]): Route[][] {
  const byPriority = new Map<number, Route[]>()
  routes.forEach((r, i) => {
    const p = r.priority ?? i
    const tier = byPriority.get(p)
    if (tier) tier.push(r)
    else byPriority.set(p, [r])
  })
  return [...byPriority.entries()].sort((a, b) => a[0] - b[0]).map(([, tier]) => tier)
}

export class RouteRotation {
  /** Per tier (model + route ids): each route's running "current weight". */
  private readonly current = new Map<string, Map<string, number>>()

  /** The routes of one call of `model`, in the order to try them. */
  order(model: string, routes: readonly Route[]): Route[] {
    if (routes.length < 2) return [...routes]
    return tiers(routes).flatMap((tier) => this.rotate(model, tier))
  }

  /** One smooth weighted round-robin step: every route gains its weight, the highest leads and pays the total. */
  private rotate(model: string, tier: Route[]): Route[] {
    if (tier.length < 2) return tier
    const key = `${model}\n${tier.map(routeId).join('\n')}`
    let state = this.current.get(key)
    if (!state) this.current.set(key, (state = new Map()))
    let total = 0
    let best: Route | undefined
    let bestValue = Number.NEGATIVE_INFINITY
    for (const r of tier) {
      const w = r.weight ?? 1
      const value = (state.get(routeId(r)) ?? 0) + w
      state.set(routeId(r), value)
      total += w
      if (value > bestValue) [best, bestValue] = [r, value]
    }
    state.set(routeId(best!), bestValue - total)
    return [best!, ...tier.filter((r) => r !== best)]
  }
}
