// In-process store with the Lua scripts' semantics, for the embedded default (one process).
import { ABANDONED_MARK_MS } from './lease.ts'
import { outboxCallOf } from './outbox-call.ts'
import { balanceCovers } from './balance-cover.ts'
import { ADMITTED, admitResult, BALANCE_SHORT, COLD, KEY_LIMIT_SHORT, OVER_CONCURRENCY, OVER_TPM, RATE_LIMITED } from './admit-result.ts'
import {
  WINDOW_TTL_MS,
  windowOf,
  type AdmitInput,
  type AdmitResult,
  type OutboxCall,
  type OutboxEntry,
  type SettleInput,
  type Store,
} from './types.ts'

interface HeldLease {
  userId: string
  keyId: string
  reserve: bigint
  cost: bigint
  record: string
  deadline: number
}

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
  const leases = new Map<string, HeldLease>()
  let lastLeaseSweep = 0
  /** Lease id → when its abandoned mark may be forgotten. */
  const abandoned = new Map<string, number>()
  /** Key id → the lease ids of its calls in flight (maxConcurrent). */
  const concurrent = new Map<string, Set<string>>()

  const move = (acct: Account | undefined, keyId: string, reserve: bigint, cost: bigint) => {
    if (!acct) return
    acct.reserved -= reserve
    acct.keyReserved.set(keyId, (acct.keyReserved.get(keyId) ?? 0n) - reserve)
    // A key's spend not mirrored is loaded with this record counted (loadAccount).
    const spent = acct.keySpent.get(keyId)
    if (spent !== undefined) acct.keySpent.set(keyId, spent + cost)
    acct.balance -= cost
  }
  /** A key's new period (lua/load.lua): its earlier periods' counts without a reservation are dropped. */
  const dropIdlePeriods = (acct: Account, keyId: string, current: string) => {
    for (const k of acct.keySpent.keys())
      if (k !== current && k.startsWith(`${keyId}@`) && (acct.keyReserved.get(k) ?? 0n) === 0n) {
        acct.keySpent.delete(k)
        acct.keyReserved.delete(k)
      }
  }

  /** The release script's semantics for every lease past its deadline. */
  const sweep = (nowMs: number, max: number): number => {
    let released = 0
    for (const [id, l] of leases) {
      if (released >= max) break
      if (l.deadline > nowMs) continue
      leases.delete(id)
      abandoned.set(id, nowMs + ABANDONED_MARK_MS)
      move(accounts.get(l.userId), l.keyId, l.reserve, l.cost)
      append(l.record)
      released++
    }
    for (const [id, until] of abandoned) if (until <= nowMs) abandoned.delete(id)
    return released
  }

  function* unacknowledged(): Generator<OutboxEntry> {
    yield* queue
    for (const item of inFlight.values()) yield item.entry
  }

  /** The key's calls in flight: leases still live (settled, swept or expired ones leave). */
  const callsOf = (keyId: string, nowMs: number): Set<string> => {
    const ids = concurrent.get(keyId) ?? new Set<string>()
    concurrent.set(keyId, ids)
    for (const id of ids) if ((leases.get(id)?.deadline ?? 0) <= nowMs) ids.delete(id)
    return ids
  }

  const counter = (key: string, nowMs: number) => {
    const win = windows.get(key)
    return win && win.expires > nowMs ? win.count : 0
  }

  const admitOne = (input: AdmitInput): [status: number, requests: number, tokens: number] => {
    const { index } = windowOf(input.nowMs)
    const wkey = `${input.keyId}:${index}`
    const tkey = `tpm:${input.keyId}:${index}`
    const count = counter(wkey, input.nowMs)
    const used = counter(tkey, input.nowMs)
    if (count >= input.rpm) return [RATE_LIMITED, count, used]
    const tpm = input.tpm ?? null
    const tokens = input.tokens ?? 0
    if (tpm !== null && used + tokens > tpm) return [OVER_TPM, count, used]
    const maxConcurrent = input.maxConcurrent ?? null
    if (maxConcurrent !== null && callsOf(input.keyId, input.nowMs).size >= maxConcurrent) return [OVER_CONCURRENCY, count, used]
    // The in-process store releases expired leases itself before deciding (one process: no
    // other instance can hold them), at most every 250 ms so admission stays O(1) on average.
    if (leases.size > 0 && Math.abs(input.nowMs - lastLeaseSweep) >= 250) {
      lastLeaseSweep = input.nowMs
      sweep(input.nowMs, leases.size)
    }
    const spendKey = input.spendKey ?? input.keyId
    const acct = accounts.get(input.userId)
    const spent = acct?.keySpent.get(spendKey)
    if (!acct || spent === undefined) return [COLD, count, used]
    if (!balanceCovers(acct.balance, acct.reserved, input.reserveMicros)) return [BALANCE_SHORT, count, used]
    const kres = acct.keyReserved.get(spendKey) ?? 0n
    if (input.keyLimitMicros !== null && spent + kres + input.reserveMicros > input.keyLimitMicros) return [KEY_LIMIT_SHORT, count, used]
    if (windows.size > 100_000) for (const [k, w] of windows) if (w.expires <= input.nowMs) windows.delete(k)
    bump(wkey, 1, input.nowMs)
    if (tpm !== null && tokens > 0) bump(tkey, tokens, input.nowMs)
    acct.reserved += input.reserveMicros
    acct.keyReserved.set(spendKey, kres + input.reserveMicros)
    const l = input.lease
    if (l) {
      const held = { userId: input.userId, keyId: spendKey, reserve: input.reserveMicros, cost: l.abandonCostMicros }
      leases.set(l.id, { ...held, record: l.abandonRecord, deadline: l.deadlineMs })
      if (maxConcurrent !== null) callsOf(input.keyId, input.nowMs).add(l.id)
    }
    return [ADMITTED, count + 1, tpm !== null ? used + tokens : used]
  }

  /** Adds to a window's counter, which starts with its first count and lasts WINDOW_TTL_MS. */
  const bump = (key: string, by: number, nowMs: number) => {
    const win = windows.get(key)
    if (win && win.expires > nowMs) win.count += by
    else windows.set(key, { count: by, expires: nowMs + WINDOW_TTL_MS })
  }

  /** Settlement's token correction (lua/settle.lua): an ended window is left alone; none goes below zero. */
  const giveBackTokens = (input: SettleInput) => {
    if (!input.tokens || input.tokens.giveBack === 0) return
    const win = windows.get(`tpm:${input.keyId}:${windowOf(input.tokens.nowMs).index}`)
    if (win && win.expires > input.tokens.nowMs) win.count = Math.max(0, win.count - input.tokens.giveBack)
  }

  const append = (record: string) => {
    const id = String(++seq)
    queue.push({ id, shard: 0, record })
    appendedAt.set(id, Date.now())
    wake?.()
  }

  return {
    kind: 'memory',
    // The admit script's semantics (lua/admit.lua), status codes and all (admit-result.ts).
    async admit(input: AdmitInput): Promise<AdmitResult> {
      const [status, requests, tokens] = admitOne(input)
      return admitResult(input, status, requests, tokens)
    },
    async outboxCalls(userId) {
      const calls: OutboxCall[] = []
      for (const entry of unacknowledged()) {
        const call = outboxCallOf(entry.record, userId)
        if (call) calls.push(call)
      }
      return { calls, through: String(seq) }
    },
    // The load script's semantics (lua/load.lua).
    async loadAccount(userId, keyId, balanceMicros, keySpentMicros, outboxThrough = '0', spendKey = keyId) {
      let acct = accounts.get(userId)
      const newAccount = acct === undefined
      if (!acct) {
        acct = { balance: balanceMicros, reserved: 0n, keySpent: new Map(), keyReserved: new Map() }
        accounts.set(userId, acct)
        for (const l of leases.values()) {
          if (l.userId !== userId) continue
          acct.reserved += l.reserve
          acct.keyReserved.set(l.keyId, (acct.keyReserved.get(l.keyId) ?? 0n) + l.reserve)
        }
      }
      const newKey = !acct.keySpent.has(spendKey)
      if (newKey) acct.keySpent.set(spendKey, keySpentMicros)
      if (newKey && spendKey.includes('@')) dropIdlePeriods(acct, keyId, spendKey)
      if (!newAccount && !newKey) return
      const read = Number(outboxThrough)
      for (const entry of unacknowledged()) {
        const call = Number(entry.id) > read ? outboxCallOf(entry.record, userId) : undefined
        if (!call) continue
        if (newAccount) acct.balance -= call.costMicros
        if (newKey && call.keyId === keyId) acct.keySpent.set(spendKey, acct.keySpent.get(spendKey)! + call.costMicros)
      }
    },
    async settle(input: SettleInput) {
      if (input.leaseId !== undefined && !leases.delete(input.leaseId) && abandoned.has(input.leaseId)) return false
      giveBackTokens(input)
      move(accounts.get(input.userId), input.spendKey ?? input.keyId, input.reservedMicros, input.costMicros)
      append(input.record)
      return true
    },
    async renewLease(_userId, leaseId, deadlineMs) {
      const l = leases.get(leaseId)
      if (l) l.deadline = deadlineMs
      return l !== undefined
    },
    async sweepLeases(nowMs, max) {
      return sweep(nowMs, max)
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
    async accountLeases(userId) {
      return [...leases].flatMap(([id, l]) => (l.userId === userId ? [id] : []))
    },
    async endLeases(userId, leaseIds) {
      if (leaseIds.length === 0) return
      for (const id of leaseIds) if (leases.delete(id)) abandoned.set(id, Date.now() + ABANDONED_MARK_MS)
      accounts.delete(userId)
    },
    async forgetAccount(userId, leaseId) {
      if (leaseId !== undefined && leases.delete(leaseId)) abandoned.set(leaseId, Date.now() + ABANDONED_MARK_MS)
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
    async ownPendingOutbox(consumer, max) {
      const out: OutboxEntry[] = []
      for (const item of inFlight.values()) if (item.consumer === consumer && out.length < max) out.push(item.entry)
      return out
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
    // Nothing to ask: the in-process store lives and dies with the process.
    appendOnly: async () => undefined,
    async close() {
      wake?.()
    },
  }
}
