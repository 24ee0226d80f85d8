// The ledger writer on a thread of its own (a Bun Worker running ledger-thread-worker.ts), used
// when the store is Redis and the database Postgres: both can be reached from another thread
// through connections of its own. Its outbox reads, record decoding, Postgres statements and
// garbage then never hold up a request on the main thread (docs/benchmarks.md "Low load"). The
// in-process store and PGlite live in the main thread's memory: with either, the writer stays
// there (runtime.ts).
//
// Same contract as LedgerWriter (docs/operations.md "Ledger writer"): start, stop after draining
// the outbox, counters. Its logs and metrics are posted back and land in the runtime's logger
// and metric set; a thread that dies is started again.
import type { Logger } from '../lib/log.ts'
import type { MetricSet } from '../observability/metrics.ts'
import type { KeySpace } from '../store/keys.ts'
import type { RedisTarget } from '../store/redis-client.ts'
import type { LedgerWriterHandle, WriterCounters, WriterMetrics } from './ledger-writer.ts'

/** What the thread needs to open its own clients and writer. */
export interface LedgerThreadConfig {
  databaseUrl: string
  redis: RedisTarget
  keySpace: KeySpace
  commandTimeoutMs: number
  batch: number
  blockMs: number
  lingerMs: number
}

export type ToThread =
  | { type: 'open'; config: LedgerThreadConfig }
  | { type: 'start' }
  | { type: 'stop'; id: number }
  | { type: 'close'; id: number }

export type FromThread =
  | { type: 'opened' }
  | { type: 'failed'; error: string }
  | { type: 'done'; id: number; error?: string }
  | { type: 'counters'; counters: WriterCounters }
  | { type: 'metric'; name: keyof WriterMetrics; value: number; reason?: 'unreadable' | 'rejected' }
  | { type: 'log'; level: keyof Logger; msg: string; fields?: Record<string, unknown> }

const RESTART_DELAY_MS = 1_000

export class LedgerThread implements LedgerWriterHandle {
  readonly counters: WriterCounters = { records: 0, deadLettered: 0, failedBatches: 0, groupRepairs: 0 }
  private worker: Worker | undefined
  private running = false
  private closing = false
  private nextId = 0
  private readonly replies = new Map<number, (error?: string) => void>()
  /** Counters of threads that died, so the totals never go back. */
  private readonly before: WriterCounters = { ...this.counters }

  constructor(
    private readonly config: LedgerThreadConfig,
    private readonly log: Logger,
    private readonly metrics?: MetricSet,
  ) {}

  /** Starts the thread and waits until its clients are connected; rejects with the thread's error. */
  async open(): Promise<void> {
    const worker = new Worker(new URL('./ledger-thread-worker.ts', import.meta.url).href)
    this.worker = worker
    const opened = new Promise<void>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<FromThread>) => {
        if (e.data.type === 'opened') resolve()
        else if (e.data.type === 'failed') reject(new Error(e.data.error))
        else this.receive(e.data)
      }
      worker.addEventListener('close', () => {
        reject(new Error('ledger writer thread exited while opening'))
        this.exited(worker)
      })
    })
    worker.postMessage({ type: 'open', config: this.config } satisfies ToThread)
    await opened.catch((e) => {
      worker.terminate()
      throw e
    })
    if (this.running) this.post({ type: 'start' })
  }

  start(): void {
    this.running = true
    this.post({ type: 'start' })
  }

  async stop(): Promise<void> {
    this.running = false
    await this.ask('stop')
  }

  /** Stops (draining the outbox), closes the thread's clients and ends the thread. */
  async close(): Promise<void> {
    this.running = false
    this.closing = true
    try {
      await this.ask('close')
    } finally {
      this.worker?.terminate()
      this.worker = undefined
    }
  }

  private post(message: ToThread): void {
    this.worker?.postMessage(message)
  }

  private ask(type: 'stop' | 'close'): Promise<void> {
    if (!this.worker) return Promise.resolve()
    const id = ++this.nextId
    return new Promise<void>((resolve, reject) => {
      this.replies.set(id, (error) => (error ? reject(new Error(error)) : resolve()))
      this.post({ type, id })
    })
  }

  private receive(m: FromThread): void {
    if (m.type === 'done') {
      this.replies.get(m.id)?.(m.error)
      this.replies.delete(m.id)
    } else if (m.type === 'counters') {
      const b = this.before
      this.counters.records = b.records + m.counters.records
      this.counters.deadLettered = b.deadLettered + m.counters.deadLettered
      this.counters.failedBatches = b.failedBatches + m.counters.failedBatches
      this.counters.groupRepairs = b.groupRepairs + m.counters.groupRepairs
    } else if (m.type === 'metric') this.count(m)
    else if (m.type === 'log') this.log[m.level](m.msg, m.fields)
  }

  private count(m: Extract<FromThread, { type: 'metric' }>): void {
    const set = this.metrics
    if (!set) return
    if (m.name === 'writerBatch') set.writerBatch.observe(m.value)
    else if (m.name === 'writerBatchSeconds') set.writerBatchSeconds.observe(m.value)
    else if (m.name === 'writerRecords') set.writerRecords.inc(m.value)
    else if (m.name === 'writerFailures') set.writerFailures.inc()
    else set.deadLetters.inc({ reason: m.reason ?? 'rejected' })
  }

  /** The thread ended: answer whoever waits on it; unless closing, start a new one. */
  private exited(worker: Worker): void {
    if (this.worker !== worker) return
    this.worker = undefined
    for (const reply of this.replies.values()) reply()
    this.replies.clear()
    Object.assign(this.before, this.counters)
    if (this.closing) return
    this.log.error('ledger writer thread exited; starting a new one', { inMs: RESTART_DELAY_MS })
    setTimeout(() => {
      if (this.closing) return
      // A failed start ends that thread too, which lands here again.
      this.open().catch((e) => this.log.error('ledger writer thread failed to start', { err: String(e) }))
    }, RESTART_DELAY_MS)
  }
}
