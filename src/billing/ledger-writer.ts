// Settlement's second half, off the request path: drains the store's outbox in batches and
// writes request logs + usage ledger entries to Postgres in one transaction per batch.
// Idempotent: request_logs (id, created_at) and ledger_entries.reference are unique (created_at
// comes from the record, so a redelivered record collides again), and balances move only
// by the entries this transaction actually inserted — so a redelivered batch bills nothing twice.
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { base62 } from '../lib/ids.ts'
import type { Logger } from '../lib/log.ts'
import type { OutboxEntry, Store } from '../store/types.ts'
import { decodeRecord } from './outbox-record.ts'

export interface LedgerWriterOptions {
  db: Db
  store: Store
  log: Logger
  batch: number
  blockMs: number
  /** After a partial batch arrives, wait this long for more before writing. */
  lingerMs: number
  consumer?: string
}

/**
 * One statement (so one implicit transaction) per batch: Postgres unpacks the records from a
 * single JSON parameter, inserts logs and usage entries with ON CONFLICT DO NOTHING, and moves
 * balances and key spend only by the entries it actually inserted. Building the batch in SQL
 * rather than through the query builder keeps the writer's CPU per record small.
 */
export async function writeRecords(db: Db, records: string[]): Promise<number> {
  if (records.length === 0) return 0
  const batch = `[${records.join(',')}]`
  const result = await db.execute(sql`
with input as (
  select r.*, (r.usage->>'inputTokens')::int as in_t, (r.usage->>'outputTokens')::int as out_t,
         (r.usage->>'cacheReadTokens')::int as cr_t, (r.usage->>'cacheWriteTokens')::int as cw_t,
         (r.usage->>'reasoningTokens')::int as rs_t, r.cost::bigint as cost_m,
         to_timestamp(r."at" / 1000.0) as at_ts
  from jsonb_to_recordset(${batch}::jsonb) as r("requestId" text, "userId" text, "keyId" text, model text,
       gateway text, protocol text, stream boolean, status int, "errorCode" text, usage jsonb, cost text,
       "usageSource" text, "latencyMs" float8, "at" bigint)
), logs as (
  insert into request_logs (id, user_id, key_id, model, gateway, protocol, stream, status, error_code,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros,
    usage_source, latency_ms, created_at)
  select "requestId", "userId", "keyId", model, gateway, protocol, stream, status, "errorCode",
    in_t, out_t, cr_t, cw_t, rs_t, cost_m, "usageSource", round("latencyMs")::int, at_ts from input
  on conflict (id, created_at) do nothing
), entries as (
  insert into ledger_entries (id, user_id, kind, status, amount_micros, method, reference, key_id,
    request_id, meta, created_at, completed_at)
  select 'txn_u_' || "requestId", "userId", 'usage', 'completed', -cost_m, 'api', 'usage:' || "requestId",
    "keyId", "requestId", jsonb_build_object('model', model, 'usage', usage, 'usageSource', "usageSource"),
    at_ts, now()
  from input where cost_m > 0
  on conflict (reference) do nothing
  returning user_id, key_id, amount_micros
), balances as (
  update accounts a set balance_micros = a.balance_micros + d.delta, updated_at = now()
  from (select user_id, sum(amount_micros) as delta from entries group by user_id) d
  where a.user_id = d.user_id
), keys as (
  update api_keys k set spent_micros = k.spent_micros + coalesce(d.spent, 0),
    last_used_at = greatest(k.last_used_at, u.last_at)
  from (select "keyId" as key_id, max(at_ts) as last_at from input group by "keyId") u
  left join (select key_id, -sum(amount_micros) as spent from entries group by key_id) d using (key_id)
  where k.id = u.key_id
)
select count(*)::int as inserted from entries`)
  // postgres-js answers an array of rows; PGlite an object with `rows`.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { inserted: number }[]
  return Number(rows[0]?.inserted ?? 0)
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
        if (entries.length > 0 && entries.length < this.opts.batch && this.opts.lingerMs > 0) {
          // Linger (as Kafka producers do): a sparse trickle is gathered into one batch instead of
          // one Postgres statement per request, which would compete with requests for the CPU.
          await Bun.sleep(this.opts.lingerMs)
          entries.push(...(await this.opts.store.readOutbox(this.consumer, this.opts.batch - entries.length, 0)))
        }
        if (entries.length > 0) await this.handle(entries)
      } catch (err) {
        // Unacknowledged entries stay in the outbox and are reclaimed; back off briefly.
        this.opts.log.error('ledger writer batch failed', { err: String(err) })
        await Bun.sleep(1_000)
      }
    }
  }

  private async handle(entries: OutboxEntry[]): Promise<void> {
    const records: string[] = []
    for (const e of entries) {
      // A record that does not decode would fail every batch it is in: log it and drop it.
      if (decodeRecord(e.record)) records.push(e.record)
      else this.opts.log.error('unreadable outbox record dropped', { id: e.id, record: e.record.slice(0, 500) })
    }
    await writeRecords(this.opts.db, records)
    await this.opts.store.ackOutbox(entries)
  }
}
