// Upstream calls under way on each route of this instance (docs/operators.md "Models and
// gateways": in flight): an attempt counts from its start until its answer is read — a JSON
// answer when it arrives, a stream when it ends — or until it fails.
type RouteRef = { gateway: { id: string }; upstreamModel: string }

export class RouteLoad {
  /** Per gateway, per upstream model: the route's own strings are the keys (no key built per call). */
  private readonly open = new Map<string, Map<string, number>>()

  started(route: RouteRef): void {
    let models = this.open.get(route.gateway.id)
    if (!models) this.open.set(route.gateway.id, (models = new Map()))
    models.set(route.upstreamModel, (models.get(route.upstreamModel) ?? 0) + 1)
  }

  ended(route: RouteRef): void {
    const models = this.open.get(route.gateway.id)
    if (!models) return
    const left = (models.get(route.upstreamModel) ?? 0) - 1
    if (left > 0) models.set(route.upstreamModel, left)
    else models.delete(route.upstreamModel)
  }

  inFlight(gatewayId: string, upstreamModel: string): number {
    return this.open.get(gatewayId)?.get(upstreamModel) ?? 0
  }
}
