// Route quotas on Redis: one EVALSHA of lua/route-take.lua per request on a route that has a
// limit; each route's window is one key with its own hash tag (Redis Cluster safe). The same
// connection keeps the sticky routes of cache prefixes (sticky-routes.ts): one key each, GET/SET PX.
import { connectRedis, type RedisClient, type RedisTarget } from './redis-client.ts'
import { ROUTE_WINDOW_TTL_MS, refused, type RouteLimits } from './route-limits.ts'
import type { StickyRoutes } from './sticky-routes.ts'
import { windowOf } from './types.ts'

type Scripted = RedisClient & {
  tgRouteTake(k1: string, rpm: number, tpm: number, tokens: number, ttl: number): Promise<[number, string]>
  tgRouteAdjust(k1: string, delta: number): Promise<number>
}
const script = (name: string) => Bun.file(new URL(`./lua/${name}.lua`, import.meta.url)).text()

export async function createRedisRouteStores(target: RedisTarget, prefix: string): Promise<{ limits: RouteLimits; sticky: StickyRoutes }> {
  // On a call's path, so it fails fast like the hot-path store: no queueing while disconnected, a
  // bound on each command; a failed check lets the call through (docs/failover.md "Upstream limits").
  const redis = (await connectRedis(target, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    commandTimeout: 500,
    retryStrategy: (times: number) => Math.min(50 * times, 500),
  })) as Scripted
  redis.defineCommand('tgRouteTake', { numberOfKeys: 1, lua: await script('route-take') })
  redis.defineCommand('tgRouteAdjust', { numberOfKeys: 1, lua: await script('route-adjust') })
  const windowKey = (route: string, nowMs: number) => `${prefix}{rt:${route}}:${windowOf(nowMs).index}`
  const limits: RouteLimits = {
    async take(q) {
      const [admitted, reason] = await redis.tgRouteTake(windowKey(q.route, q.nowMs), q.rpm ?? 0, q.tpm ?? 0, q.tokens, ROUTE_WINDOW_TTL_MS)
      return admitted === 1 ? { ok: true } : refused(reason === 'tpm' ? 'tpm' : 'rpm', q.nowMs)
    },
    async settle(q, tokens) {
      if (tokens !== q.tokens) await redis.tgRouteAdjust(windowKey(q.route, q.nowMs), tokens - q.tokens)
    },
    async close() {
      await redis.quit()
    },
  }
  const sticky: StickyRoutes = {
    async get(p) {
      return (await redis.get(`${prefix}sticky:${p}`)) ?? undefined
    },
    async set(p, route, ttlMs) {
      await redis.set(`${prefix}sticky:${p}`, route, 'PX', ttlMs)
    },
  }
  return { limits, sticky }
}

export async function createRedisRouteLimits(target: RedisTarget, prefix: string): Promise<RouteLimits> {
  return (await createRedisRouteStores(target, prefix)).limits
}
