// What the inference pipeline is given (STYLE 9: side effects injected).
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

/** Settlements and streams still running; graceful shutdown waits for them. */
export class InFlight {
  private readonly tasks = new Set<Promise<unknown>>()
  streams = 0

  track(p: Promise<unknown>): void {
    this.tasks.add(p)
    p.finally(() => this.tasks.delete(p))
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
