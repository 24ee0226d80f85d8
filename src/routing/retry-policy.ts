// What to do after a failed attempt on a route (docs/failover.md "Retries"): retry the same
// route after a delay, or move on to the next route. Pure: the caller sleeps and counts.
import type { GatewayError } from '../core/errors.ts'
import type { GatewayPolicy } from './policy.ts'

export type AfterFailure = { action: 'retry'; delayMs: number } | { action: 'next'; reason: string }

/** Failures worth another try on the same route: overload, server errors, lost connections. */
function sameRouteMayHelp(err: GatewayError): boolean {
  const u = err.extra.upstream
  if (!u) return false
  if (u.kind === 'connect' || u.kind === 'timeout') return true
  if (u.kind === 'status') return u.status !== undefined && (u.status >= 500 || u.status === 429 || u.status === 408)
  return false
}

/**
 * Exponential backoff with "equal jitter": half of the step is fixed and half random, so the
 * retries of many clients spread out while each wait keeps a known lower bound.
 */
export function backoffMs(policy: GatewayPolicy, retry: number, random: () => number = Math.random): number {
  const step = Math.min(policy.backoffMaxMs, policy.backoffMs * 2 ** retry)
  return Math.round(step / 2 + random() * (step / 2))
}

/**
 * `retriesDone`: retries already made on this route; `elapsedMs`: since the call began;
 * `attemptMs`: the longest one attempt may take (the gateway's timeoutMs). A Retry-After within
 * the cap is waited exactly; beyond it the route is left for the next one. A retry starts only
 * if its wait and a whole attempt fit in the deadline — so with the defaults a 30 s hang is not
 * repeated, while a quick 5xx is.
 */
export function afterFailure(
  policy: GatewayPolicy,
  err: GatewayError,
  retriesDone: number,
  elapsedMs: number,
  attemptMs = 0,
  random: () => number = Math.random,
): AfterFailure {
  if (!sameRouteMayHelp(err)) return { action: 'next', reason: err.extra.upstream?.kind ?? 'failed' }
  if (retriesDone >= policy.retries) return { action: 'next', reason: 'retries exhausted' }
  const asked = err.extra.upstream?.retryAfterMs
  if (asked !== undefined && asked > policy.retryAfterMaxMs) return { action: 'next', reason: 'retry-after beyond cap' }
  const delayMs = asked ?? backoffMs(policy, retriesDone, random)
  if (elapsedMs + delayMs + attemptMs > policy.deadlineMs) return { action: 'next', reason: 'call deadline' }
  return { action: 'retry', delayMs }
}
