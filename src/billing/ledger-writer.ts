// Settlement's second half, off the request path: drains the store's outbox in batches and
// writes request logs + usage ledger entries to Postgres in one transaction per batch.
// Idempotent: request_logs (id, created_at) and ledger_entries.reference are unique (created_at
// comes from the record, so a redelivered record collides again), and balances move only
// by the entries this transaction actually inserted — so a redelivered batch bills nothing twice.
// It never stalls (docs/operations.md "Ledger writer"): records are sanitised before they are
// bound; a record Postgres still refuses is isolated by bisecting its batch and dead-lettered;
// a batch that fails for an outage is kept and retried first, with a backoff capped at 1 s;
// a lost consumer group (Redis restarted without its data) is recreated.
import type { Db } from '../db/client.ts'
import { base62 } from '../lib/ids.ts'
import type { Logger } from '../lib/log.ts'
import type { OutboxEntry, Store } from '../store/types.ts'
import { errorText, insertDeadLetter, isRecordError } from './dead-letters.ts'
import { writeBatch } from './ledger-batch.ts'
import { decodeRecord, type OutboxRecord, sanitizedRecord } from './outbox-record.ts'

export { writeRecords } from './ledger-batch.ts'

export interface LedgerWriterOptions {
  db: Db
  store: Store
  log: Logger
  batch: number
  blockMs: number
  /** After a partial batch arrives, wait this long for more before writing. */
  lingerMs: number
  consumer?: string
  /** Batch sizes, durations, failures and dead letters (docs/observability.md). */
  metrics?: WriterMetrics
}

/** The writer's metrics (docs/observability.md), as observability/metrics.ts builds them: billing names only what it counts. */
export interface WriterMetrics {
  writerBatch: { observe(n: number): void }
  writerRecords: { inc(n?: number): void }
  writerBatchSeconds: { observe(s: number): void }
  writerFailures: { inc(): void }
  deadLetters: { inc(labels: { reason: 'unreadable' | 'rejected' }): void }
}

/** Plain counters for metrics (read them; never reset). */
export interface WriterCounters {
  /** Records handled (written, already present, or dead-lettered) and acknowledged. */
  records: number
  deadLettered: number
  /** Batch attempts that failed (outage) and were kept for retry. */
  failedBatches: number
  /** Consumer groups recreated after NOGROUP. */
  groupRepairs: number
}

interface Prepared {
  raw: string
  requestId: string | undefined
  /** The record as written: sanitised (outbox-record.ts sanitizedRecord); undefined when it could not be read at all. */
  record: OutboxRecord | undefined
}

const MAX_BACKOFF_MS = 1_000
const UNREADABLE = 'unreadable outbox record'

export class LedgerWriter {
  readonly counters: WriterCounters = { records: 0, deadLettered: 0, failedBatches: 0, groupRepairs: 0 }
  private running = false
  private loop: Promise<void> | undefined
  private readonly consumer: string
  private lastReclaim = 0
  private lastRepair = 0
  /** Entries read but not yet acknowledged after a failure: retried before anything new. */
  private pending: OutboxEntry[] = []
  /**
   * Set after a failure: a read whose reply was lost still delivered its entries to this
   * consumer, so the next read takes this consumer's unacknowledged entries first.
   */
  private ownPendingFirst = false

  constructor(private readonly opts: LedgerWriterOptions) {
    this.consumer = opts.consumer ?? `w-${process.pid}-${base62(6)}`
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.loop = this.run()
  }

  /** Stop after draining everything currently in the outbox (graceful shutdown). */
  async stop(): Promise<void> {
    this.running = false
    await this.loop
    await this.drain()
  }

  /** Write everything available now; returns how many records were handled. */
  async drain(): Promise<number> {
    let total = 0
    for (;;) {
      const entries = this.pending.length > 0 ? this.pending : await this.readNow()
      if (entries.length === 0) return total
      this.pending = entries
      await this.handle(entries)
      this.pending = []
      total += entries.length
    }
  }

  private async run(): Promise<void> {
    let backoff = 50
    while (this.running) {
      let entries = this.pending
      try {
        if (entries.length === 0) entries = await this.next()
        if (entries.length > 0) await this.handle(entries)
        this.pending = []
        backoff = 50
      } catch (err) {
        this.pending = entries
        this.ownPendingFirst = true
        if (entries.length > 0) this.counters.failedBatches++
        this.opts.metrics?.writerFailures.inc()
        // Repaired: read again at once — unless NOGROUP came back right after a repair (no hot loop).
        if (/NOGROUP/.test(String(err)) && Date.now() - this.lastRepair > 1_000 && (await this.repair())) continue
        this.opts.log.error('ledger writer batch failed; retrying', { err: String(err), records: entries.length, retryInMs: backoff })
        await Bun.sleep(backoff)
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
      }
    }
  }

  /** This consumer's unacknowledged entries after a failure, else what is new (no waiting). */
  private async readNow(): Promise<OutboxEntry[]> {
    const { store, batch } = this.opts
    if (this.ownPendingFirst) {
      const own = await store.ownPendingOutbox(this.consumer, batch)
      if (own.length > 0) return own
      this.ownPendingFirst = false
    }
    return store.readOutbox(this.consumer, batch, 0)
  }

  private async next(): Promise<OutboxEntry[]> {
    const { store, batch, blockMs, lingerMs } = this.opts
    if (this.ownPendingFirst) {
      const own = await store.ownPendingOutbox(this.consumer, batch)
      if (own.length > 0) return own
      this.ownPendingFirst = false
    }
    if (Date.now() - this.lastReclaim > 30_000) {
      this.lastReclaim = Date.now()
      const stale = await store.reclaimOutbox(this.consumer, 60_000, batch)
      if (stale.length > 0) return stale
    }
    const entries = await store.readOutbox(this.consumer, batch, blockMs)
    if (entries.length > 0 && entries.length < batch && lingerMs > 0) {
      // Linger (as Kafka producers do): a sparse trickle is gathered into one batch instead of
      // one Postgres statement per request, which would compete with requests for the CPU.
      await Bun.sleep(lingerMs)
      entries.push(...(await store.readOutbox(this.consumer, batch - entries.length, 0).catch(() => [])))
    }
    return entries
  }

  /** Redis lost its data (restart without persistence): recreate the consumer groups. */
  private async repair(): Promise<boolean> {
    try {
      this.lastRepair = Date.now()
      await this.opts.store.repairOutbox()
      this.counters.groupRepairs++
      this.opts.log.warn('ledger writer recreated the outbox consumer groups (NOGROUP)')
      return true
    } catch {
      return false
    }
  }

  private async handle(entries: OutboxEntry[]): Promise<void> {
    const t = performance.now()
    const deadBefore = this.counters.deadLettered
    const items = entries.map(prepare)
    for (const bad of items.filter((i) => i.record === undefined)) await this.deadLetter(bad, UNREADABLE)
    await this.writeIsolated(items.filter((i) => i.record !== undefined))
    await this.opts.store.ackOutbox(entries)
    this.counters.records += entries.length
    const m = this.opts.metrics
    m?.writerBatch.observe(entries.length)
    m?.writerRecords.inc(entries.length - (this.counters.deadLettered - deadBefore))
    m?.writerBatchSeconds.observe((performance.now() - t) / 1000)
  }

  /** Writes the batch; if Postgres refuses its data, halves it until the refused record is alone. */
  private async writeIsolated(items: Prepared[]): Promise<void> {
    if (items.length === 0) return
    try {
      await writeBatch(
        this.opts.db,
        items.map((i) => i.record!),
      )
    } catch (err) {
      if (!isRecordError(err)) throw err
      if (items.length === 1) return this.deadLetter(items[0]!, errorText(err))
      const mid = items.length >> 1
      await this.writeIsolated(items.slice(0, mid))
      await this.writeIsolated(items.slice(mid))
    }
  }

  private async deadLetter(item: Prepared, error: string): Promise<void> {
    await insertDeadLetter(this.opts.db, item.raw, item.requestId, error)
    this.counters.deadLettered++
    this.opts.log.error('outbox record dead-lettered (not billed until replayed)', {
      requestId: item.requestId,
      error,
      record: item.raw.slice(0, 500),
    })
    this.opts.metrics?.deadLetters.inc({ reason: error === UNREADABLE ? 'unreadable' : 'rejected' })
  }
}

function prepare(e: OutboxEntry): Prepared {
  const r = decodeRecord(e.record)
  return { raw: e.record, requestId: r?.requestId, record: r ? sanitizedRecord(r) : undefined }
}
