// Upstream calls under way on each route of this instance (docs/operators.md "Models and
// gateways": in flight): an attempt counts from its start until its answer is read — a JSON
// answer when it arrives, a stream when it ends — or until it fails.
type RouteRef = { gateway: { id: string }; upstreamModel: string }

const keyOf = (gatewayId: string, upstreamModel: string) => `${gatewayId}|${upstreamModel}`

export class RouteLoad {
  private readonly open = new Map<string, number>()

  started(route: RouteRef): void {
    const key = keyOf(route.gateway.id, route.upstreamModel)
    this.open.set(key, (this.open.get(key) ?? 0) + 1)
  }

  ended(route: RouteRef): void {
    const key = keyOf(route.gateway.id, route.upstreamModel)
    const left = (this.open.get(key) ?? 0) - 1
    if (left > 0) this.open.set(key, left)
    else this.open.delete(key)
  }

  inFlight(gatewayId: string, upstreamModel: string): number {
    return this.open.get(keyOf(gatewayId, upstreamModel)) ?? 0
  }
}
