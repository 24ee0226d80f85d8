import { describe, expect, test } from 'bun:test'
import { createMemoryStickyRoutes } from '../../src/store/sticky-routes.ts'
import { createRedisRouteStores } from '../../src/store/route-limits-redis.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'

describe('sticky routes in one process', () => {
  test('remembered for its time, then forgotten; the last set wins', async () => {
    let clock = 0
    const s = createMemoryStickyRoutes(() => clock)
    await s.set('p', 'gw-a|m', 1_000)
    expect(await s.get('p')).toBe('gw-a|m')
    await s.set('p', 'gw-b|m', 1_000)
    clock = 999
    expect(await s.get('p')).toBe('gw-b|m')
    clock = 1_000
    expect(await s.get('p')).toBeUndefined()
  })
})

describe.if(SERVICES)('sticky routes on Redis', () => {
  test('one instance sets, another reads it', async () => {
    const keys = freshKeyPrefix()
    const [a, b] = await Promise.all([createRedisRouteStores(REDIS_URL, keys.prefix), createRedisRouteStores(REDIS_URL, keys.prefix)])
    await a.sticky.set('p', 'gw-a|m', 60_000)
    expect(await b.sticky.get('p')).toBe('gw-a|m')
    expect(await b.sticky.get('other')).toBeUndefined()
    await a.limits.close()
    await b.limits.close()
    await keys.clear()
  })
})
