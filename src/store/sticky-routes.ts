// Which route last served a cache prefix (docs/failover.md "Warm prompt caches"), shared by every
// instance: Redis keys with a TTL (route-limits-redis.ts's connection), or this process's map.

export interface StickyRoutes {
  /** The route id that served `prefix` last, if still remembered. */
  get(prefix: string): Promise<string | undefined>
  /** Remember `route` for `prefix` for `ttlMs` more. */
  set(prefix: string, route: string, ttlMs: number): Promise<void>
}

/** Five minutes: the shortest prompt-cache lifetime among the providers (Anthropic's default). */
export const STICKY_TTL_MS = 300_000

export function createMemoryStickyRoutes(now: () => number = Date.now): StickyRoutes {
  const byPrefix = new Map<string, { route: string; until: number }>()
  return {
    async get(prefix) {
      const hit = byPrefix.get(prefix)
      if (hit && hit.until > now()) return hit.route
      byPrefix.delete(prefix)
      return undefined
    },
    async set(prefix, route, ttlMs) {
      byPrefix.set(prefix, { route, until: now() + ttlMs })
      if (byPrefix.size > 100_000) byPrefix.delete(byPrefix.keys().next().value!)
    },
  }
}
