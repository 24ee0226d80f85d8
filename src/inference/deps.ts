// What the inference pipeline is given (side effects injected: docs/architecture.md "Code conventions").
import type { ApiKeyAuth } from '../auth/api-keys.ts'
import type { SettleRescue } from '../billing/settle-rescue.ts'
import type { Catalog } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import type { Logger } from '../lib/log.ts'
import type { Metrics } from '../observability/telemetry.ts'
import type { Tracer } from '../observability/tracing.ts'
import type { Router } from '../routing/router.ts'
import type { Store } from '../store/types.ts'

/**
 * Settlements, admitted calls and streams still running; graceful shutdown (docs/drain.md)
 * stops admitting, waits for `calls` to reach zero, then cuts what is left.
 */
export class InFlight {
  private readonly tasks = new Set<Promise<unknown>>()
  private waiters: (() => void)[] = []
  streams = 0
  /** Admitted and not yet settled, streaming or not. */
  calls = 0
  /** Set at SIGTERM: no new call is admitted. */
  draining = false
  /** Aborted when the drain's grace ends: every call still open is cut and settled. */
  readonly cut = new AbortController()

  track(p: Promise<unknown>): void {
    this.tasks.add(p)
    p.finally(() => this.tasks.delete(p))
  }

  callEnded(): void {
    this.calls--
    if (this.calls > 0) return
    for (const w of this.waiters) w()
    this.waiters = []
  }

  /** Resolves once no admitted call is open, or after `ms`. Returns whether all ended. */
  async callsEnded(ms: number): Promise<boolean> {
    if (this.calls > 0) {
      let timer: Timer | undefined
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms)
        this.waiters.push(resolve)
      })
      clearTimeout(timer)
    }
    return this.calls <= 0
  }

  async settled(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks])
  }

  get size(): number {
    return this.tasks.size + this.streams
  }
}

export interface InferenceDeps {
  db: Db
  store: Store
  catalog: Catalog
  auth: ApiKeyAuth
  config: Config
  log: Logger
  inflight: InFlight
  /** Where a settlement goes when the store's round trip fails (docs/operations.md). */
  rescue: SettleRescue
  /** Breakers and failover counters (docs/failover.md). */
  router: Router
  now: () => number
  metrics: Metrics
  tracer: Tracer
}
