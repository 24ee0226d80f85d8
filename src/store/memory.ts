// In-process store with the Lua scripts' semantics, for the embedded default (one process).
import { WINDOW_MS, windowOf, type AdmitInput, type AdmitResult, type OutboxEntry, type SettleInput, type Store } from './types.ts'

interface Account {
  balance: bigint
  reserved: bigint
  keySpent: Map<string, bigint>
  keyReserved: Map<string, bigint>
}

export function createMemoryStore(): Store {
  const accounts = new Map<string, Account>()
  const windows = new Map<string, { count: number; expires: number }>()
  let lastSweep = 0
  let queue: OutboxEntry[] = []
  const inFlight = new Map<string, { entry: OutboxEntry; consumer: string; since: number }>()
  let seq = 0
  /** Append time of every unacknowledged entry, oldest first (Map keeps insertion order). */
  const appendedAt = new Map<string, number>()
  let wake: (() => void) | undefined

  const append = (record: string) => {
    const id = String(++seq)
    queue.push({ id, shard: 0, record })
    appendedAt.set(id, Date.now())
    wake?.()
  }

  return {
    kind: 'memory',
    async admit(input: AdmitInput): Promise<AdmitResult> {
      const { index, resetMs } = windowOf(input.nowMs)
      const wkey = `${input.keyId}:${index}`
      let win = windows.get(wkey)
      if (win && win.expires <= input.nowMs) win = undefined
      const count = win?.count ?? 0
      const rate = { limit: input.rpm, remaining: Math.max(0, input.rpm - count), resetMs }
      if (count >= input.rpm) return { ok: false, reason: 'rate', rate: { ...rate, remaining: 0 } }
      const acct = accounts.get(input.userId)
      const spent = acct?.keySpent.get(input.keyId)
      if (!acct || spent === undefined) return { ok: false, reason: 'cold' }
      if (acct.balance - acct.reserved < input.reserveMicros) return { ok: false, reason: 'balance', rate }
      const kres = acct.keyReserved.get(input.keyId) ?? 0n
      if (input.keyLimitMicros !== null && spent + kres + input.reserveMicros > input.keyLimitMicros)
        return { ok: false, reason: 'key_limit', rate }
      if (windows.size > 100_000) for (const [k, w] of windows) if (w.expires <= input.nowMs) windows.delete(k)
      windows.set(wkey, { count: count + 1, expires: input.nowMs + WINDOW_MS + 1_000 })
      acct.reserved += input.reserveMicros
      acct.keyReserved.set(input.keyId, kres + input.reserveMicros)
      return { ok: true, rate: { ...rate, remaining: Math.max(0, input.rpm - count - 1) } }
    },
    async loadAccount(userId, keyId, balanceMicros, keySpentMicros) {
      let acct = accounts.get(userId)
      if (!acct) {
        acct = { balance: balanceMicros, reserved: 0n, keySpent: new Map(), keyReserved: new Map() }
        accounts.set(userId, acct)
      }
      if (!acct.keySpent.has(keyId)) acct.keySpent.set(keyId, keySpentMicros)
    },
    async settle(input: SettleInput) {
      const acct = accounts.get(input.userId)
      if (acct) {
        acct.reserved -= input.reservedMicros
        acct.keyReserved.set(input.keyId, (acct.keyReserved.get(input.keyId) ?? 0n) - input.reservedMicros)
        acct.keySpent.set(input.keyId, (acct.keySpent.get(input.keyId) ?? 0n) + input.costMicros)
        acct.balance -= input.costMicros
      }
      append(input.record)
    },
    async appendOutbox(_userId, record) {
      append(record)
    },
    async adjustBalance(userId, deltaMicros) {
      const acct = accounts.get(userId)
      if (acct) acct.balance += deltaMicros
    },
    async account(userId) {
      const acct = accounts.get(userId)
      return acct && { balanceMicros: acct.balance, reservedMicros: acct.reserved }
    },
    async forgetAccount(userId) {
      accounts.delete(userId)
    },
    async readOutbox(consumer, max, blockMs) {
      if (queue.length === 0 && blockMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, blockMs)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wake = undefined
      }
      const taken = queue.slice(0, max)
      queue = queue.slice(taken.length)
      for (const entry of taken) inFlight.set(entry.id, { entry, consumer, since: Date.now() })
      return taken
    },
    async ackOutbox(entries) {
      for (const e of entries) {
        inFlight.delete(e.id)
        appendedAt.delete(e.id)
      }
    },
    async reclaimOutbox(consumer, minIdleMs, max) {
      const out: OutboxEntry[] = []
      const now = Date.now()
      for (const item of inFlight.values()) {
        if (out.length >= max) break
        if (now - item.since >= minIdleMs) {
          item.consumer = consumer
          item.since = now
          out.push(item.entry)
        }
      }
      return out
    },
    async repairOutbox() {},
    async hit(bucket, limit, windowMs, nowMs) {
      const { index, resetMs } = windowOf(nowMs, windowMs)
      const key = `c:${bucket}:${windowMs}:${index}`
      let win = windows.get(key)
      if (win && win.expires <= nowMs) win = undefined
      const count = win?.count ?? 0
      if (count >= limit) return { ok: false, rate: { limit, remaining: 0, resetMs } }
      // Per-IP buckets are unbounded in number: sweep expired windows as the map grows (at most
      // once a second, so a flood of addresses does not make every call a full scan).
      if (windows.size > 100_000 && nowMs - lastSweep > 1_000) {
        lastSweep = nowMs
        for (const [k, w] of windows) if (w.expires <= nowMs) windows.delete(k)
      }
      windows.set(key, { count: count + 1, expires: nowMs + windowMs + 1_000 })
      return { ok: true, rate: { limit, remaining: Math.max(0, limit - count - 1), resetMs } }
    },
    async outboxStats() {
      const oldest = appendedAt.values().next()
      return { depth: appendedAt.size, oldestMs: oldest.done ? null : oldest.value }
    },
    async ping() {},
    async close() {
      wake?.()
    },
  }
}
