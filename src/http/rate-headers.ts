// Rate-limit headers (docs/api.md "Rate windows"): RateLimit-Limit/-Remaining/-Reset (seconds), and
// Retry-After on a 429.
import type { RateInfo } from '../store/types.ts'

export function rateHeaders(rate: RateInfo, rejected = false): Record<string, string> {
  const reset = String(Math.max(1, Math.ceil(rate.resetMs / 1000)))
  const h: Record<string, string> = {
    'ratelimit-limit': String(rate.limit),
    'ratelimit-remaining': String(rate.remaining),
    'ratelimit-reset': reset,
  }
  if (rejected) h['retry-after'] = reset
  return h
}
