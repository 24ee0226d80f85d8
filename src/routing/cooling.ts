// Routes cooling after an upstream 429 whose Retry-After is beyond the gateway's retry cap
// (docs/failover.md "429 cools a route"): the route is skipped for that long on every instance,
// without its breaker counting a failure. Shared through the breaker board under `cool:` keys:
// the instance that cools a route publishes it; every instance applies what is published and
// catches up from the board's snapshot.
import type { Route } from '../core/gateway.ts'
import type { Logger } from '../lib/log.ts'
import type { BreakerBoard, SharedBreaker } from '../store/breaker-board.ts'

export const COOL_PREFIX = 'cool:'
export const isCoolKey = (key: string) => key.startsWith(COOL_PREFIX)
const coolKey = (route: Pick<Route, 'upstreamModel'> & { gateway: Pick<Route['gateway'], 'id'> }) =>
  `${COOL_PREFIX}${route.gateway.id}|${route.upstreamModel}`

export class Cooling {
  private readonly until = new Map<string, number>()

  constructor(
    private readonly board: BreakerBoard,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    board.subscribe((key, state) => this.apply(key, state))
  }

  async sync(): Promise<void> {
    for (const [key, state] of await this.board.snapshot()) this.apply(key, state)
  }

  private apply(key: string, state: SharedBreaker): void {
    if (!isCoolKey(key)) return
    if (state.phase === 'closed') this.until.delete(key)
    else if (state.until > (this.until.get(key) ?? 0)) this.until.set(key, state.until)
  }

  /** Skip `route` for `ms` here and on every instance. */
  cool(route: Route, ms: number, requestId: string): void {
    const key = coolKey(route)
    const until = this.now() + ms
    this.apply(key, { phase: 'open', until })
    this.log.info('route cooling after 429', { requestId, gateway: route.gateway.id, ms })
    this.board.publish(key, { phase: 'open', until }).catch((e) => this.log.warn('cooling publish failed', { key, err: String(e) }))
  }

  /** Milliseconds `route` still cools (0: it may be tried). */
  waitMs(route: Pick<Route, 'upstreamModel'> & { gateway: Pick<Route['gateway'], 'id'> }): number {
    // Nothing cools (the usual case): no key is built for the lookup.
    if (this.until.size === 0) return 0
    const until = this.until.get(coolKey(route))
    return until === undefined ? 0 : Math.max(0, until - this.now())
  }
}
