// Per-IP limits of the console (docs/console.md "Limits"): every /api/* call 120 per minute, auth
// attempts 30 per 15 minutes, password-reset requests 10 per hour; console emails 3 per hour per
// email address, whoever asks (docs/console.md "Password reset"). Counters live in the shared store (Redis when configured), so the
// limits hold across instances. Rejected calls do not count.
import { GatewayError } from '../../core/errors.ts'
import { rateHeaders } from '../../http/rate-headers.ts'
import type { Store } from '../../store/types.ts'

export interface RateRule {
  /** Counter namespace; one per rule, so rules never share a counter. */
  name: string
  limit: number
  windowMs: number
}

export const API_LIMIT: RateRule = { name: 'api', limit: 120, windowMs: 60_000 }
export const AUTH_LIMIT: RateRule = { name: 'auth', limit: 30, windowMs: 15 * 60_000 }
export const RESET_LIMIT: RateRule = { name: 'reset', limit: 10, windowMs: 60 * 60_000 }
export const MAIL_LIMIT: RateRule = { name: 'mail', limit: 3, windowMs: 60 * 60_000 }

/** Counts one call from `ip` under `rule`; 429 RATE_LIMITED with Retry-After when over. */
export async function limitIp(store: Store, rule: RateRule, ip: string, nowMs: number): Promise<Record<string, string>> {
  const { ok, rate } = await store.hit(`${rule.name}:${ip}`, rule.limit, rule.windowMs, nowMs)
  if (!ok)
    throw new GatewayError('RATE_LIMITED', 'Too many requests from this address; retry after the time in Retry-After.', {
      headers: rateHeaders(rate, true),
    })
  return rateHeaders(rate)
}

/**
 * Counts one use of `subject` under `rule`; false when over, without an error: a caller that must
 * answer the same either way (a reset request for any email) just does nothing more.
 */
export async function withinLimit(store: Store, rule: RateRule, subject: string, nowMs: number): Promise<boolean> {
  return (await store.hit(`${rule.name}:${subject}`, rule.limit, rule.windowMs, nowMs)).ok
}
