// Route quotas (docs/failover.md "Upstream limits"): the same cases against the in-process
// windows and route-take.lua, and the Redis one exact under three instances taking at once.
import { afterAll, describe, expect, test } from 'bun:test'
import { createMemoryRouteLimits, type RouteLimits, type RouteQuota } from '../../src/store/route-limits.ts'
import { createRedisRouteLimits } from '../../src/store/route-limits-redis.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'

const T0 = 1_800_000_000_000 // a window boundary (divisible by 60 000)
const q = (over: Partial<RouteQuota> = {}): RouteQuota => ({
  route: 'gw|m',
  rpm: undefined,
  tpm: undefined,
  tokens: 10,
  nowMs: T0,
  ...over,
})

const keys = freshKeyPrefix()
const made: RouteLimits[] = []
afterAll(async () => {
  for (const l of made) await l.close()
  await keys.clear()
})
const kinds: [string, () => Promise<RouteLimits>][] = [
  ['memory', async () => createMemoryRouteLimits()],
  ['redis', async () => createRedisRouteLimits(REDIS_URL, `${keys.prefix}${crypto.randomUUID()}:`)],
]

for (const [name, make] of kinds.filter(([n]) => SERVICES || n === 'memory')) {
  describe(`route limits (${name})`, () => {
    test('rpm: exactly rpm requests per window, then refused until the window turns', async () => {
      const l = await make()
      made.push(l)
      const results = []
      for (let i = 0; i < 4; i++) results.push(await l.take(q({ rpm: 3, nowMs: T0 + 1_000 })))
      expect(results.map((r) => r.ok)).toEqual([true, true, true, false])
      expect(results[3]).toEqual({ ok: false, reason: 'rpm', waitMs: 59_000 })
      expect((await l.take(q({ rpm: 3, nowMs: T0 + 60_000 }))).ok).toBe(true)
    })

    test('tpm: estimates add up to the quota; one larger than the whole quota passes only in an unused window', async () => {
      const l = await make()
      made.push(l)
      expect((await l.take(q({ tpm: 100, tokens: 60 }))).ok).toBe(true)
      expect((await l.take(q({ tpm: 100, tokens: 40 }))).ok).toBe(true)
      expect(await l.take(q({ tpm: 100, tokens: 1 }))).toEqual({ ok: false, reason: 'tpm', waitMs: 60_000 })
      expect((await l.take(q({ tpm: 100, tokens: 500, nowMs: T0 + 60_000 }))).ok).toBe(true)
      expect((await l.take(q({ tpm: 100, tokens: 1, nowMs: T0 + 60_000 }))).ok).toBe(false)
    })

    test('settle replaces the estimate by the real count, in the window it was taken from only', async () => {
      const l = await make()
      made.push(l)
      const taken = q({ tpm: 100, tokens: 60 })
      expect((await l.take(taken)).ok).toBe(true)
      expect((await l.take(q({ tpm: 100, tokens: 60 }))).ok).toBe(false)
      await l.settle(taken, 10)
      expect((await l.take(q({ tpm: 100, tokens: 60 }))).ok).toBe(true)
      expect((await l.take(q({ tpm: 100, tokens: 31 }))).ok).toBe(false)
      // A window that has turned keeps its own counts: a late correction of the old one changes nothing here.
      const next = q({ tpm: 100, tokens: 90, nowMs: T0 + 60_000 })
      expect((await l.take(next)).ok).toBe(true)
      await l.settle(taken, 0)
      expect((await l.take(q({ tpm: 100, tokens: 20, nowMs: T0 + 60_000 }))).ok).toBe(false)
    })

    test('routes count apart, and a refused request counts nothing', async () => {
      const l = await make()
      made.push(l)
      expect((await l.take(q({ rpm: 1 }))).ok).toBe(true)
      expect((await l.take(q({ rpm: 1 }))).ok).toBe(false)
      expect((await l.take(q({ rpm: 1, route: 'gw|other' }))).ok).toBe(true)
      expect((await l.take(q({ tpm: 15, route: 'gw|t', tokens: 10 }))).ok).toBe(true)
      expect((await l.take(q({ tpm: 15, route: 'gw|t', tokens: 10 }))).ok).toBe(false)
      expect((await l.take(q({ tpm: 15, route: 'gw|t', tokens: 5 }))).ok).toBe(true)
    })
  })
}

describe.if(SERVICES)('route limits across instances (Redis)', () => {
  test('three instances taking 90 requests at once against rpm 40 / tpm 10 000: exactly 40 pass', async () => {
    const prefix = `${keys.prefix}${crypto.randomUUID()}:`
    const instances = await Promise.all([0, 1, 2].map(() => createRedisRouteLimits(REDIS_URL, prefix)))
    made.push(...instances)
    const all = await Promise.all(Array.from({ length: 90 }, (_, i) => instances[i % 3]!.take(q({ rpm: 40, tpm: 10_000, tokens: 100 }))))
    expect(all.filter((r) => r.ok)).toHaveLength(40)
    const tokens = await Promise.all(
      Array.from({ length: 30 }, (_, i) => instances[i % 3]!.take(q({ route: 'gw|tpm', tpm: 1_000, tokens: 100 }))),
    )
    expect(tokens.filter((r) => r.ok)).toHaveLength(10)
  })
})
