// docs/failover.md "429 cools a route": a 429 whose Retry-After is beyond the gateway's cap skips
// that route for that long on every instance, the call moving on at once, the breaker untouched.
import { afterAll, describe, expect, test } from 'bun:test'
import { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { routeKey } from '../../src/routing/breakers.ts'
import { withFailover } from '../../src/routing/failover.ts'
import { resolvePolicy } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard, type BreakerBoard } from '../../src/store/breaker-board.ts'
import { createRedisBoard } from '../../src/store/breaker-board-redis.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const route = (id: string): Route => ({
  gateway: {
    id,
    protocol: 'openai-chat',
    baseUrl: 'http://x',
    apiKey: undefined,
    timeoutMs: 1_000,
    enabled: true,
    // One failure would open the breaker: a 429 that cools must not count as one.
    policy: resolvePolicy({ retries: 2, retryAfterMaxMs: 10_000, breaker: { failures: 1 } }),
  },
  upstreamModel: `m-${id}`,
})
const tooMany = (retryAfterMs: number) =>
  new GatewayError('UPSTREAM_ERROR', 'x', { retryable: true, upstream: { kind: 'status', status: 429, retryAfterMs } })

/** Attempts answering from `script[gateway]` in order (undefined = an answer); the gateways asked. */
function scripted(script: Record<string, (GatewayError | undefined)[]>) {
  const asked: string[] = []
  const attempt = async (r: Route) => {
    asked.push(r.gateway.id)
    const outcome = script[r.gateway.id]?.shift()
    if (outcome) throw outcome
    return r.gateway.id
  }
  return { asked, attempt }
}

describe('429 cools a route', () => {
  test('beyond the cap: no wait, the next route answers; the route is skipped for the Retry-After, its breaker stays closed', async () => {
    let clock = 1_000_000
    const router = new Router(
      createMemoryBoard(() => clock),
      silentLogger,
      () => clock,
      async () => {},
    )
    const [a, b] = [route('a'), route('b')]
    const s = scripted({ a: [tooMany(60_000)] })
    expect((await withFailover(router, [a, b], s.attempt, 'r1')).value).toBe('b')
    expect(s.asked).toEqual(['a', 'b'])
    expect(router.breakers.phase(routeKey(a))).toBe('closed')
    expect(router.counters.retries).toBe(0)
    await withFailover(router, [a, b], s.attempt, 'r2')
    expect(s.asked).toEqual(['a', 'b', 'b'])
    clock += 60_000
    expect((await withFailover(router, [a, b], s.attempt, 'r3')).value).toBe('a')
  })

  test('within the cap the same route is retried in place, and nothing cools', async () => {
    const slept: number[] = []
    const router = new Router(createMemoryBoard(), silentLogger, Date.now, async (ms) => void slept.push(ms))
    const s = scripted({ a: [tooMany(2_000)] })
    expect((await withFailover(router, [route('a'), route('b')], s.attempt, 'r1')).value).toBe('a')
    expect(slept).toEqual([2_000])
    expect(router.cooling.waitMs(route('a'))).toBe(0)
  })

  test('every route cooling: 503 UPSTREAM_UNAVAILABLE, Retry-After the soonest of them', async () => {
    const clock = 5_000
    const router = new Router(
      createMemoryBoard(() => clock),
      silentLogger,
      () => clock,
      async () => {},
    )
    router.cooling.cool(route('a'), 40_000, 'r0')
    router.cooling.cool(route('b'), 20_500, 'r0')
    const s = scripted({})
    const err = (await withFailover(router, [route('a'), route('b')], s.attempt, 'r1').catch((e) => e)) as GatewayError
    expect(err.code).toBe('UPSTREAM_UNAVAILABLE')
    expect(err.extra.headers?.['retry-after']).toBe('21')
    expect(s.asked).toEqual([])
  })
})

describe.if(SERVICES)('429 cooling across instances (Redis board)', () => {
  const keys = freshKeyPrefix()
  const boards: BreakerBoard[] = []
  afterAll(async () => {
    for (const b of boards) await b.close()
    await keys.clear()
  })

  test('one instance cools the route; the others skip it at once, and a later instance finds it in the snapshot', async () => {
    const make = async () => {
      const board = await createRedisBoard(REDIS_URL, keys.prefix)
      boards.push(board)
      return new Router(board, silentLogger, Date.now, async () => {})
    }
    const [one, two, three] = [await make(), await make(), await make()]
    const s = scripted({ a: [tooMany(120_000)] })
    await withFailover(one, [route('a'), route('b')], s.attempt, 'r1')
    for (const r of [two, three]) await until(() => r.cooling.waitMs(route('a')) > 0, 'the cooling reaches every instance')
    await withFailover(two, [route('a'), route('b')], s.attempt, 'r2')
    await withFailover(three, [route('a'), route('b')], s.attempt, 'r3')
    expect(s.asked).toEqual(['a', 'b', 'b', 'b'])
    const late = await make()
    await late.start(0)
    expect(late.cooling.waitMs(route('a'))).toBeGreaterThan(100_000)
    expect(late.breakers.phase(routeKey(route('a')))).toBe('closed')
  })
})
