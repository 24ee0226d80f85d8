// Where circuit breakers meet across instances (docs/failover.md "Circuit breaker"): an instance
// that opens or closes a breaker publishes it here; every instance applies what others publish
// to its own in-process view, so N instances don't each pay the discovery cost. Nothing here is
// on the hot path's round trip: publishing is not awaited by calls, and the only awaited
// operation, claimProbe, happens once per cool-down.

export type SharedBreaker = { phase: 'open'; until: number } | { phase: 'closed' }

export interface BreakerBoard {
  /** Record a state change and tell every instance. */
  publish(key: string, state: SharedBreaker): Promise<void>
  /** Every breaker currently open (catch-up at start and after missed messages). */
  snapshot(): Promise<Map<string, SharedBreaker>>
  /** Changes published by any instance (this one included). */
  subscribe(fn: (key: string, state: SharedBreaker) => void): void
  /** One half-open probe across all instances: true for the one caller that got the slot. */
  claimProbe(key: string, ttlMs: number): Promise<boolean>
  /** Frees a claimed probe whose call ended before the upstream said anything. */
  releaseProbe(key: string): Promise<void>
  close(): Promise<void>
}

/** Parses a published change; undefined for anything malformed (never trusted blindly). */
export function readShared(json: string): { key: string; state: SharedBreaker } | undefined {
  try {
    const v = JSON.parse(json)
    if (typeof v?.key !== 'string') return undefined
    if (v.state?.phase === 'closed') return { key: v.key, state: { phase: 'closed' } }
    if (v.state?.phase === 'open' && Number.isFinite(v.state.until)) return { key: v.key, state: { phase: 'open', until: v.state.until } }
  } catch {}
  return undefined
}

/** The board of one process (embedded default): the same contract, without a network. */
export function createMemoryBoard(now: () => number = Date.now): BreakerBoard {
  const open = new Map<string, SharedBreaker>()
  const probes = new Map<string, number>()
  const listeners: ((key: string, state: SharedBreaker) => void)[] = []
  return {
    async publish(key, state) {
      if (state.phase === 'open') open.set(key, state)
      else open.delete(key)
      for (const fn of listeners) queueMicrotask(() => fn(key, state))
    },
    async snapshot() {
      return new Map(open)
    },
    subscribe(fn) {
      listeners.push(fn)
    },
    async claimProbe(key, ttlMs) {
      const until = probes.get(key)
      if (until !== undefined && until > now()) return false
      probes.set(key, now() + ttlMs)
      return true
    },
    async releaseProbe(key) {
      probes.delete(key)
    },
    async close() {
      listeners.length = 0
    },
  }
}
