// Per-route upstream quotas (docs/failover.md "Upstream limits"): a route's `rpm` and `tpm` are
// the upstream account's, so every instance counts against one window. Fixed 60 s windows like
// the key windows (store/types.ts). Redis: route-limits-redis.ts; one process: below.
import { WINDOW_MS, WINDOW_TTL_MS, windowOf } from './types.ts'

export interface RouteQuota {
  /** Stable id of the route: gateway id and upstream model. */
  route: string
  rpm: number | undefined
  tpm: number | undefined
  /** This request's token estimate (prompt and the most it may write). */
  tokens: number
  nowMs: number
}

/** ok, or refused with the milliseconds until the window turns. */
export type QuotaResult = { ok: true } | { ok: false; reason: 'rpm' | 'tpm'; waitMs: number }

export interface RouteLimits {
  take(q: RouteQuota): Promise<QuotaResult>
  /** Replace a taken request's token estimate by `tokens` (its real count; 0 for an attempt that failed). */
  settle(q: RouteQuota, tokens: number): Promise<void>
  close(): Promise<void>
}

/** What the Lua script decides, for one window's counts (the in-process store's copy of it). */
export function decide(used: { r: number; t: number }, q: RouteQuota): 'rpm' | 'tpm' | 'ok' {
  if (q.rpm && used.r >= q.rpm) return 'rpm'
  if (q.tpm && used.t > 0 && used.t + q.tokens > q.tpm) return 'tpm'
  return 'ok'
}

export const refused = (reason: 'rpm' | 'tpm', nowMs: number): QuotaResult => ({ ok: false, reason, waitMs: windowOf(nowMs).resetMs })

export function createMemoryRouteLimits(): RouteLimits {
  const windows = new Map<string, { r: number; t: number; index: number }>()
  return {
    async take(q) {
      const { index } = windowOf(q.nowMs, WINDOW_MS)
      let used = windows.get(q.route)
      if (!used || used.index !== index) windows.set(q.route, (used = { r: 0, t: 0, index }))
      const verdict = decide(used, q)
      if (verdict !== 'ok') return refused(verdict, q.nowMs)
      used.r++
      used.t += q.tokens
      return { ok: true }
    },
    async settle(q, tokens) {
      const used = windows.get(q.route)
      if (used && used.index === windowOf(q.nowMs).index) used.t = Math.max(0, used.t + tokens - q.tokens)
    },
    async close() {
      windows.clear()
    },
  }
}

export const ROUTE_WINDOW_TTL_MS = WINDOW_TTL_MS
