// A runtime's metrics: the metric set (metrics.ts), process metrics, and what is read at scrape
// time rather than on the hot path — open streams, this instance's outstanding reservations,
// outbox depth and age, and whether Redis and Postgres answer.
import client from 'prom-client'
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { Store } from '../store/types.ts'
import { defineMetrics, type MetricSet } from './metrics.ts'
import { withDeadline } from '../lib/deadline.ts'

export interface ScrapeSources {
  store: Store
  db: Db
  /** Event streams open right now. */
  openStreams: () => number
}

/** A probe that does not answer within this time counts as down (the scrape must not hang). */
const PROBE_TIMEOUT_MS = 2_000

/**
 * Process metrics describe the process, not a runtime: one registry for the whole process
 * (collectDefaultMetrics starts an event-loop monitor and GC observer each time it is called,
 * which several runtimes in one process, as in tests, must not multiply).
 */
let processRegistry: client.Registry | undefined
function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry()
    client.collectDefaultMetrics({ register: processRegistry })
    // Under Bun, v8.getHeapSpaceStatistics walks the whole heap on the event loop (~100 ms at 2M
    // objects, seconds after an overload), so a scrape stalled every call (docs/observability.md).
    for (const kind of ['total', 'used', 'available']) processRegistry.removeSingleMetric(`nodejs_heap_space_size_${kind}_bytes`)
  }
  return processRegistry
}

export class Metrics {
  readonly registry = new client.Registry()
  readonly m: MetricSet
  /** Micro-USD reserved by admitted calls of this instance not yet settled (a Number: < 2^53). */
  reservedMicros = 0
  private sources: ScrapeSources | undefined

  private exportedRegistry: client.Registry | undefined

  constructor(private readonly opts: { processMetrics?: boolean } = {}) {
    this.m = defineMetrics(this.registry)
  }

  /** Made at the first scrape: the process metrics' collectors start then, not on the way to the first call. */
  private get exported(): client.Registry {
    this.exportedRegistry ??= this.opts.processMetrics === false ? this.registry : client.Registry.merge([processMetrics(), this.registry])
    return this.exportedRegistry
  }

  /** Where scrape-time values come from (set once the runtime's clients exist). */
  watch(sources: ScrapeSources): void {
    this.sources = sources
  }

  get contentType(): string {
    return this.registry.contentType
  }

  async scrape(): Promise<string> {
    await this.refresh()
    return this.exported.metrics()
  }

  private async refresh(): Promise<void> {
    const { m } = this
    m.reserved.set(this.reservedMicros)
    const s = this.sources
    if (!s) return
    m.openStreams.set(s.openStreams())
    const [store, db, outbox, aof] = await Promise.allSettled([
      withDeadline(s.store.ping(), PROBE_TIMEOUT_MS, 'store probe'),
      withDeadline(s.db.execute(sql`select 1`), PROBE_TIMEOUT_MS, 'database probe'),
      withDeadline(s.store.outboxStats(), PROBE_TIMEOUT_MS, 'outbox probe'),
      withDeadline(s.store.appendOnly(), PROBE_TIMEOUT_MS, 'append-only probe'),
    ])
    m.storeUp.set(store.status === 'fulfilled' ? 1 : 0)
    if (s.store.kind === 'redis') m.redisAof.set(aof.status === 'fulfilled' && aof.value === true ? 1 : 0)
    m.databaseUp.set(db.status === 'fulfilled' ? 1 : 0)
    // When the store does not answer, the outbox gauges keep their last value (tollgate_store_up says why).
    if (outbox.status === 'fulfilled') {
      m.outboxDepth.set(outbox.value.depth)
      m.ledgerLag.set(outbox.value.oldestMs === null ? 0 : Math.max(0, Date.now() - outbox.value.oldestMs) / 1000)
    }
  }
}
