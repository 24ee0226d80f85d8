// What one ledger-writer batch adds up to (billing/ledger-batch.ts writes it in the statement
// that inserts the batch's request logs): per account, its usage entry — the sum of its calls
// that cost anything (docs/api.md "Ledger"); per key, its spend and last use; per UTC day, the
// report rollups (docs/operators.md "Reports"): request_daily by user, model and gateway,
// latency_daily by model and latency. An error is a call with a fault (the upstream's or
// Tollgate's: core/call-end.ts), whatever its status. Pure: the statement writes these rows.
import type { OutboxRecord } from './outbox-record.ts'

/** A call as the batch bills it: its record and its cost in micro-USD. */
export interface BatchCall {
  record: OutboxRecord
  cost: bigint
}

/** An account's usage entry: the calls that cost anything, as one debit. */
export interface EntryTally {
  userId: string
  /** Negative: minus the sum of the calls' costs. */
  amount: bigint
  calls: number
  /** Receipt of the first and the last of those calls (epoch ms). */
  fromMs: number
  toMs: number
}

export interface KeyTally {
  keyId: string
  /** The sum of the key's calls that cost anything. */
  spent: bigint
  lastMs: number
}

export interface DailyTally {
  /** UTC day: days since 1970-01-01. */
  day: number
  userId: string
  model: string
  /** '' for a call no gateway answered. */
  gateway: string
  calls: number
  errors: number
  cost: bigint
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

/** Calls of one day and model that took exactly `latencyMs` (the statement buckets them: latency_bucket). */
export interface LatencyTally {
  day: number
  model: string
  latencyMs: number
  calls: number
}

export interface BatchTally {
  entries: EntryTally[]
  keys: KeyTally[]
  daily: DailyTally[]
  latency: LatencyTally[]
  /** Calls that cost anything: each is in one entry. */
  billed: number
}

const DAY_MS = 86_400_000

/** The UTC day of an epoch-ms instant, as days since 1970-01-01. */
export const utcDay = (ms: number): number => Math.floor(ms / DAY_MS)

export function tallyBatch(calls: readonly BatchCall[]): BatchTally {
  const entries = new Map<string, EntryTally>()
  const keys = new Map<string, KeyTally>()
  const daily = new Map<string, DailyTally>()
  const latency = new Map<string, LatencyTally>()
  let billed = 0
  for (const { record: r, cost } of calls) {
    const day = utcDay(r.at)
    const charged = cost > 0n
    if (charged) {
      billed++
      const e = entries.get(r.userId)
      if (e === undefined) entries.set(r.userId, { userId: r.userId, amount: -cost, calls: 1, fromMs: r.at, toMs: r.at })
      else {
        e.amount -= cost
        e.calls++
        e.fromMs = Math.min(e.fromMs, r.at)
        e.toMs = Math.max(e.toMs, r.at)
      }
    }
    const k = keys.get(r.keyId)
    if (k === undefined) keys.set(r.keyId, { keyId: r.keyId, spent: charged ? cost : 0n, lastMs: r.at })
    else {
      if (charged) k.spent += cost
      k.lastMs = Math.max(k.lastMs, r.at)
    }
    const gateway = r.gateway ?? ''
    const dailyKey = `${day}\n${r.userId}\n${r.model}\n${gateway}`
    let d = daily.get(dailyKey)
    if (d === undefined) {
      d = {
        day,
        userId: r.userId,
        model: r.model,
        gateway,
        calls: 0,
        errors: 0,
        cost: 0n,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      }
      daily.set(dailyKey, d)
    }
    d.calls++
    if (r.fault !== undefined) d.errors++
    d.cost += cost
    d.inputTokens += r.usage.inputTokens
    d.outputTokens += r.usage.outputTokens
    d.cacheReadTokens += r.usage.cacheReadTokens
    d.cacheWriteTokens += r.usage.cacheWriteTokens
    const latencyKey = `${day}\n${r.model}\n${r.latencyMs}`
    const l = latency.get(latencyKey)
    if (l === undefined) latency.set(latencyKey, { day, model: r.model, latencyMs: r.latencyMs, calls: 1 })
    else l.calls++
  }
  return { entries: [...entries.values()], keys: [...keys.values()], daily: [...daily.values()], latency: [...latency.values()], billed }
}
