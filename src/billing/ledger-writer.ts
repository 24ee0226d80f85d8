// Settlement's second half, off the request path: drains the store's outbox in batches and
// writes request logs + usage ledger entries to Postgres in one transaction per batch.
// Idempotent: request_logs.id and ledger_entries.reference are unique, and balances move only
// by the entries this transaction actually inserted — so a redelivered batch bills nothing twice.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { accounts, apiKeys, ledgerEntries, requestLogs } from '../db/schema/index.ts'
import { base62 } from '../lib/ids.ts'
import type { Logger } from '../lib/log.ts'
import type { OutboxEntry, Store } from '../store/types.ts'
import { decodeRecord, type OutboxRecord } from './outbox-record.ts'

export interface LedgerWriterOptions {
  db: Db
  store: Store
  log: Logger
  batch: number
  blockMs: number
  consumer?: string
}

export async function writeRecords(db: Db, records: OutboxRecord[]): Promise<number> {
  if (records.length === 0) return 0
  return db.transaction(async (tx) => {
    await tx
      .insert(requestLogs)
      .values(
        records.map((r) => ({
          id: r.requestId,
          userId: r.userId,
          keyId: r.keyId,
          model: r.model,
          gateway: r.gateway,
          protocol: r.protocol,
          stream: r.stream,
          status: r.status,
          errorCode: r.errorCode,
          inputTokens: r.usage.inputTokens,
          outputTokens: r.usage.outputTokens,
          cacheReadTokens: r.usage.cacheReadTokens,
          cacheWriteTokens: r.usage.cacheWriteTokens,
          reasoningTokens: r.usage.reasoningTokens,
          costMicros: BigInt(r.cost),
          usageSource: r.usageSource,
          latencyMs: Math.round(r.latencyMs),
          createdAt: new Date(r.at),
        })),
      )
      .onConflictDoNothing()
    const charged = records.filter((r) => r.cost !== '0')
    const inserted =
      charged.length === 0
        ? []
        : await tx
            .insert(ledgerEntries)
            .values(
              charged.map((r) => ({
                id: `txn_${base62(20)}`,
                userId: r.userId,
                kind: 'usage' as const,
                status: 'completed' as const,
                amountMicros: -BigInt(r.cost),
                method: 'api',
                reference: `usage:${r.requestId}`,
                keyId: r.keyId,
                requestId: r.requestId,
                meta: { model: r.model, usage: r.usage, usageSource: r.usageSource },
                createdAt: new Date(r.at),
                completedAt: new Date(),
              })),
            )
            .onConflictDoNothing()
            .returning({ userId: ledgerEntries.userId, keyId: ledgerEntries.keyId, amount: ledgerEntries.amountMicros })
    const byUser = new Map<string, bigint>()
    const byKey = new Map<string, bigint>()
    for (const e of inserted) {
      byUser.set(e.userId, (byUser.get(e.userId) ?? 0n) + e.amount)
      if (e.keyId) byKey.set(e.keyId, (byKey.get(e.keyId) ?? 0n) - e.amount)
    }
    for (const [userId, delta] of byUser)
      await tx
        .update(accounts)
        .set({ balanceMicros: sql`${accounts.balanceMicros} + ${delta}`, updatedAt: new Date() })
        .where(eq(accounts.userId, userId))
    const lastUsed = new Map<string, number>()
    for (const r of records) lastUsed.set(r.keyId, Math.max(lastUsed.get(r.keyId) ?? 0, r.at))
    for (const [keyId, at] of lastUsed)
      await tx
        .update(apiKeys)
        .set({ spentMicros: sql`${apiKeys.spentMicros} + ${byKey.get(keyId) ?? 0n}`, lastUsedAt: new Date(at) })
        .where(and(eq(apiKeys.id, keyId)))
    return inserted.length
  })
}

export class LedgerWriter {
  private running = false
  private loop: Promise<void> | undefined
  private readonly consumer: string
  private lastReclaim = 0

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
      const entries = await this.opts.store.readOutbox(this.consumer, this.opts.batch, 0)
      if (entries.length === 0) return total
      await this.handle(entries)
      total += entries.length
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        if (Date.now() - this.lastReclaim > 30_000) {
          this.lastReclaim = Date.now()
          const stale = await this.opts.store.reclaimOutbox(this.consumer, 60_000, this.opts.batch)
          if (stale.length > 0) await this.handle(stale)
        }
        const entries = await this.opts.store.readOutbox(this.consumer, this.opts.batch, this.opts.blockMs)
        if (entries.length > 0) await this.handle(entries)
      } catch (err) {
        // Unacknowledged entries stay in the outbox and are reclaimed; back off briefly.
        this.opts.log.error('ledger writer batch failed', { err: String(err) })
        await Bun.sleep(1_000)
      }
    }
  }

  private async handle(entries: OutboxEntry[]): Promise<void> {
    const records: OutboxRecord[] = []
    for (const e of entries) {
      const r = decodeRecord(e.record)
      if (r) records.push(r)
      else this.opts.log.error('unreadable outbox record dropped', { id: e.id })
    }
    await writeRecords(this.opts.db, records)
    await this.opts.store.ackOutbox(entries)
  }
}
