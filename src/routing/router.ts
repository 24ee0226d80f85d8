// What failover needs from the process: the breakers (shared through the store's board), the
// counters, the log and the clock. Built once in runtime.ts; tests may pass a fake clock.
import type { Logger } from '../lib/log.ts'
import type { BreakerBoard } from '../store/breaker-board.ts'
import { createMemoryRouteLimits, type RouteLimits } from '../store/route-limits.ts'
import { createMemoryStickyRoutes, type StickyRoutes } from '../store/sticky-routes.ts'
import { Breakers } from './breakers.ts'
import { Cooling } from './cooling.ts'
import { FailoverCounters } from './counters.ts'
import { RouteLoad } from './route-load.ts'
import { RouteRotation } from './route-order.ts'

export class Router {
  readonly counters = new FailoverCounters()
  readonly breakers: Breakers
  /** Routes skipped after a long 429 (docs/failover.md "429 cools a route"). */
  readonly cooling: Cooling
  /** Weighted order within a priority (docs/failover.md "Priorities and weights"). */
  readonly rotation = new RouteRotation()
  /** Upstream calls under way per route on this instance (docs/operators.md "Models and gateways"). */
  readonly load = new RouteLoad()

  constructor(
    readonly board: BreakerBoard,
    readonly log: Logger,
    readonly now: () => number = Date.now,
    readonly sleep: (ms: number) => Promise<void> = (ms) => Bun.sleep(ms),
    /** Route rpm/tpm windows (docs/failover.md "Upstream limits"): Redis across instances, else this process. */
    readonly limits: RouteLimits = createMemoryRouteLimits(),
    /** Which route served a cache prefix last (docs/failover.md "Warm prompt caches"). */
    readonly sticky: StickyRoutes = createMemoryStickyRoutes(now),
  ) {
    this.breakers = new Breakers(board, log, this.counters, now)
    this.cooling = new Cooling(board, log, now)
  }

  async start(syncMs: number): Promise<void> {
    await this.breakers.start(syncMs)
    await this.cooling.sync()
  }

  async stop(): Promise<void> {
    this.breakers.stop()
    await this.limits.close()
    await this.board.close()
  }
}
