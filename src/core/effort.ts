// Reasoning effort words across vendors → canonical effort (total, explicit default).
import type { CacheHint, Effort } from './canonical.ts'

/** `none` turns reasoning off; unknown words fall back to the vendor default, medium. */
export function effortFrom(v: unknown): Effort | 'none' {
  switch (v) {
    case 'none':
    case 'disabled':
      return 'none'
    case 'minimal':
    case 'low':
      return 'low'
    case 'high':
    case 'xhigh':
    case 'max':
      return 'high'
    default:
      return 'medium'
  }
}

/** Anthropic-style `cache_control` (also sent on chat parts by OpenRouter-style clients). */
export function cacheFrom(value: unknown): CacheHint | undefined {
  if (!value || typeof value !== 'object') return undefined
  const c = value as { type?: unknown; ttl?: unknown }
  if (c.type !== 'ephemeral') return undefined
  return c.ttl === '1h' || c.ttl === '5m' ? { ttl: c.ttl } : {}
}
