// Rate-limit headers (docs/api.md "Rate windows"): RateLimit-Limit/-Remaining/-Reset (seconds), and
// Retry-After on a 429; for a key with a tpm, its token window as x-ratelimit-limit-tokens,
// -remaining-tokens and -reset-tokens (seconds), the names OpenAI's answers carry.
import type { RateInfo } from '../store/types.ts'

const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)))

export function rateHeaders(rate: RateInfo, rejected = false, tokens?: RateInfo): Record<string, string> {
  const reset = seconds(rate.resetMs)
  const h: Record<string, string> = {
    'ratelimit-limit': String(rate.limit),
    'ratelimit-remaining': String(rate.remaining),
    'ratelimit-reset': reset,
  }
  if (tokens) {
    h['x-ratelimit-limit-tokens'] = String(tokens.limit)
    h['x-ratelimit-remaining-tokens'] = String(tokens.remaining)
    h['x-ratelimit-reset-tokens'] = seconds(tokens.resetMs)
  }
  if (rejected) h['retry-after'] = reset
  return h
}
