// When the store's settle round trip fails (Redis down, timed out), the record must still reach
// Postgres exactly once (docs/operations.md "Settlement fallback"). It is written directly with
// the ledger writer's own idempotent statement — so if the settle did run after all, its outbox
// copy later inserts nothing — or, while Postgres is down too, appended to the outbox; failing
// both, it stays in an in-process spool retried with backoff (at most 1 s apart). Afterwards
// the account's mirror is dropped with the call's lease, so the next admission reloads the
// account (the failed settle may or may not have released its reservation; docs/operations.md
// "Reloading a mirror").
import type { Db } from '../db/client.ts'
import { withDeadline } from '../lib/deadline.ts'
import type { Logger } from '../lib/log.ts'
import type { Store } from '../store/types.ts'
import { isRecordError } from './dead-letters.ts'
import { writeRecords } from './ledger-batch.ts'

interface Rescued {
  userId: string
  record: string
  written: boolean
  /** Drop the mirror once written (a settlement); a plain log record needs not. */
  forget: boolean
  /** The settlement's lease, ended with the mirror so the sweep does not bill it again. */
  leaseId?: string
}

export interface RescueCounters {
  /** Records handed over after a failed store round trip. */
  rescued: number
  /** Rescued records written straight to Postgres. */
  writtenDirect: number
  /** Rescued records appended to the outbox after Postgres refused them. */
  appended: number
  /** Retry rounds run over the spool. */
  retries: number
  /** Mirrors dropped after an admit that got no answer. */
  mirrorDrops: number
}

const MAX_BACKOFF_MS = 1_000

export class SettleRescue {
  readonly counters: RescueCounters = { rescued: 0, writtenDirect: 0, appended: 0, retries: 0, mirrorDrops: 0 }
  private spool: Rescued[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private backoff = 50
  private closed = false

  constructor(
    private readonly db: Db,
    private readonly store: Store,
    private readonly log: Logger,
    /** A direct write that has not answered by then counts as failed (it may still land: idempotent). */
    private readonly writeTimeoutMs = 5_000,
  ) {}

  /** Records waiting in the spool (not yet in Postgres or the outbox, or mirror not yet dropped). */
  get spooled(): number {
    return this.spool.length
  }

  /** Hands a record over; resolves after the first attempt (the spool retries the rest). */
  async rescue(userId: string, record: string, forget = true, leaseId?: string): Promise<void> {
    this.counters.rescued++
    const r: Rescued = { userId, record, written: false, forget, leaseId }
    if (await this.attempt(r)) return
    this.spool.push(r)
    this.schedule()
  }

  /**
   * An admit that failed without an answer (timed out, connection lost) may still have reserved
   * and taken its lease — a hung Redis runs it when it wakes. Dropping the mirror with that lease
   * removes both: the client was answered 503, so nothing may hold its reservation (a reload
   * holds live leases' again, docs/operations.md "Reloading a mirror") and no sweep may bill it
   * as abandoned. The drop goes down the same connection after the admit, so it runs after it;
   * when the connection is gone it is retried like a settlement's.
   */
  dropMirror(userId: string, leaseId: string): void {
    if (this.spool.some((r) => r.userId === userId && r.leaseId === leaseId && r.written && r.forget)) return
    this.counters.mirrorDrops++
    const r: Rescued = { userId, record: '', written: true, forget: true, leaseId }
    void this.attempt(r).then((done) => {
      if (done) return
      this.spool.push(r)
      this.schedule()
    })
  }

  /**
   * One pass over the spool now (tests, shutdown); failures stay for the next pass. A record
   * leaves the spool only once done, so `spooled` counts the ones a pass is still working on.
   */
  async flush(): Promise<void> {
    for (const r of [...this.spool]) if (await this.attempt(r)) this.done(r)
    if (this.spool.length === 0) this.backoff = 50
  }

  /**
   * Before an admission of `userId`: this account's mirror drops still waiting (Redis was down)
   * run now rather than at the next retry. Redis back from its append-only file brings the
   * account's mirror back as it was, holding the reservations of calls the fallback already
   * billed; admitted against it, a call the balance covers would be refused. Nothing waiting: no
   * round trip and no promise (the admission's hot path awaits nothing).
   */
  beforeAdmit(userId: string): Promise<void> | undefined {
    if (this.spool.length === 0) return undefined
    const waiting = this.spool.filter((s) => s.userId === userId && s.written && s.forget)
    if (waiting.length === 0) return undefined
    return (async () => {
      for (const r of waiting) if (await this.attempt(r)) this.done(r)
    })()
  }

  private done(r: Rescued): void {
    const i = this.spool.indexOf(r)
    if (i >= 0) this.spool.splice(i, 1)
  }

  /** Last attempt at shutdown: what still cannot be written is logged whole, for replay. */
  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    await this.flush()
    for (const r of this.spool.filter((s) => !s.written))
      this.log.error('settlement record lost at shutdown (replay it)', { userId: r.userId, record: r.record })
  }

  private schedule(): void {
    if (this.timer !== undefined || this.closed) return
    this.timer = setTimeout(async () => {
      this.counters.retries++
      await this.flush()
      this.timer = undefined
      if (this.spool.length > 0) this.schedule()
    }, this.backoff)
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS)
  }

  /** True when the record is durable and, if asked, the mirror dropped. */
  private async attempt(r: Rescued): Promise<boolean> {
    if (!r.written) r.written = await this.write(r)
    if (!r.written) return false
    if (!r.forget) return true
    return this.store.forgetAccount(r.userId, r.leaseId).then(
      () => true,
      () => false,
    )
  }

  private async write(r: Rescued): Promise<boolean> {
    try {
      await withDeadline(writeRecords(this.db, [r.record]), this.writeTimeoutMs, 'direct settlement write')
      this.counters.writtenDirect++
      return true
    } catch (err) {
      // A record Postgres refuses goes to the outbox, where the writer dead-letters it.
      if (!isRecordError(err)) this.log.warn('settlement fallback: Postgres write failed', { err: String(err) })
    }
    try {
      await this.store.appendOutbox(r.userId, r.record)
      this.counters.appended++
      return true
    } catch {
      return false
    }
  }
}
