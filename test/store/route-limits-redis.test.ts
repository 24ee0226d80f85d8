// Route quotas and sticky routes on Redis: each route's window is one hash with its own hash tag
// and an expiry; a settlement that changes nothing sends nothing; sticky routes expire.
import { afterAll, describe, expect, test } from 'bun:test'
import Redis from 'ioredis'
import { createRedisRouteStores } from '../../src/store/route-limits-redis.ts'
import { ROUTE_WINDOW_TTL_MS } from '../../src/store/route-limits.ts'
import { windowOf } from '../../src/store/types.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'

if (SERVICES)
  describe('route stores on Redis', () => {
    const keys = freshKeyPrefix()
    const raw = new Redis(REDIS_URL)
    const opened: { close(): Promise<void> }[] = []
    afterAll(async () => {
      for (const o of opened) await o.close()
      raw.disconnect()
      await keys.clear()
    })
    const make = async () => {
      const prefix = `${keys.prefix}${crypto.randomUUID().slice(0, 8)}:`
      const stores = await createRedisRouteStores(REDIS_URL, prefix)
      opened.push(stores.limits)
      return { prefix, ...stores }
    }
    const NOW = Date.now()
    const q = { route: 'gw-a|gpt-x', rpm: 10, tpm: 1_000, tokens: 100, nowMs: NOW }

    test('a take counts in the route’s own hash-tagged window, which expires', async () => {
      const { prefix, limits } = await make()
      expect(await limits.take(q)).toEqual({ ok: true })
      const key = `${prefix}{rt:gw-a|gpt-x}:${windowOf(NOW).index}`
      expect(await raw.hgetall(key)).toEqual({ r: '1', t: '100' })
      const ttl = await raw.pttl(key)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(ROUTE_WINDOW_TTL_MS)
    })

    test('settle replaces the estimate by the real count; an equal count changes nothing', async () => {
      const { prefix, limits } = await make()
      await limits.take(q)
      const key = `${prefix}{rt:gw-a|gpt-x}:${windowOf(NOW).index}`
      await limits.settle(q, 100)
      expect(await raw.hget(key, 't')).toBe('100')
      await limits.settle(q, 340)
      expect(await raw.hget(key, 't')).toBe('340')
    })

    test('a refusal carries the reason and the wait until the window turns', async () => {
      const { limits } = await make()
      for (let i = 0; i < 2; i++) expect((await limits.take({ ...q, rpm: 2 })).ok).toBe(true)
      expect(await limits.take({ ...q, rpm: 2 })).toEqual({ ok: false, reason: 'rpm', waitMs: windowOf(NOW).resetMs })
      expect(await limits.take({ ...q, route: 'gw-b|m', tpm: 150, rpm: undefined })).toEqual({ ok: true })
      expect(await limits.take({ ...q, route: 'gw-b|m', tpm: 150, rpm: undefined })).toEqual({
        ok: false,
        reason: 'tpm',
        waitMs: windowOf(NOW).resetMs,
      })
    })

    test('a sticky route is kept for its ttl, then forgotten; prefixes do not share', async () => {
      const a = await make()
      const b = await make()
      await a.sticky.set('prefix-hash', 'gw-a|m', 80)
      expect(await a.sticky.get('prefix-hash')).toBe('gw-a|m')
      expect(await b.sticky.get('prefix-hash')).toBeUndefined()
      await Bun.sleep(150)
      expect(await a.sticky.get('prefix-hash')).toBeUndefined()
    })
  })
