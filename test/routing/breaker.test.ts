// The circuit breaker (src/routing/breaker.ts) as a pure machine with a hand-driven clock, and
// the breakers of two instances sharing state through a board: in-process and on Redis.
import { afterAll, describe, expect, test } from 'bun:test'
import { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { Breaker } from '../../src/routing/breaker.ts'
import { gatewayKey, routeKey } from '../../src/routing/breakers.ts'
import { resolvePolicy } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard, type BreakerBoard } from '../../src/store/breaker-board.ts'
import { createRedisBoard } from '../../src/store/breaker-board-redis.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const POLICY = { enabled: true, failures: 3, failureRate: 0.5, window: 6, cooldownMs: 1_000 }

describe('breaker', () => {
  test('opens on consecutive failures, skips for the cool-down, lets one probe through, closes on its success', () => {
    const b = new Breaker(POLICY)
    expect(b.failure(0)).toBeUndefined()
    expect(b.failure(1)).toBeUndefined()
    expect(b.failure(2)).toEqual({ to: 'open', until: 1_002, reason: '3 consecutive failures' })
    expect(b.admit(500)).toBe('skip')
    expect(b.admit(1_001)).toBe('skip')
    expect(b.admit(1_002)).toBe('probe')
    expect(b.phase).toBe('half-open')
    expect(b.admit(1_003)).toBe('skip') // one probe at a time
    expect(b.success()).toEqual({ to: 'closed' })
    expect(b.admit(1_004)).toBe('pass')
  })

  test('a success resets the consecutive count; a failure rate over the window opens it too', () => {
    const b = new Breaker(POLICY)
    const outcomes = [true, true, false, true, true, false] // 4 of 6 failed, never 3 in a row
    let opened
    for (const [i, failed] of outcomes.entries()) opened = failed ? b.failure(i) : b.success()
    expect(opened).toBeUndefined() // the sixth is a success: no trip on a success
    expect(b.failure(10)).toEqual({ to: 'open', until: 1_010, reason: '4 of the last 6 attempts failed' })
  })

  test('a failed probe opens it again for a full cool-down; a probe that never reports frees the slot after one cool-down', () => {
    const b = new Breaker(POLICY)
    for (let i = 0; i < 3; i++) b.failure(0)
    expect(b.admit(1_000)).toBe('probe')
    expect(b.failure(1_100)).toEqual({ to: 'open', until: 2_100, reason: 'probe failed' })
    expect(b.admit(2_099)).toBe('skip')
    expect(b.admit(2_100)).toBe('probe')
    expect(b.admit(3_099)).toBe('skip')
    expect(b.admit(3_100)).toBe('probe')
  })

  test('outcomes of calls that began before the trip change nothing while open', () => {
    const b = new Breaker(POLICY)
    for (let i = 0; i < 3; i++) b.failure(0)
    expect(b.success()).toBeUndefined()
    expect(b.failure(10)).toBeUndefined()
    expect(b.admit(999)).toBe('skip')
  })

  test('what another instance publishes is applied: open until its time, closed at once; stale opens are ignored', () => {
    const b = new Breaker(POLICY)
    b.apply({ phase: 'open', until: 500 }, 0)
    expect(b.admit(499)).toBe('skip')
    b.apply({ phase: 'closed' }, 100)
    expect(b.admit(101)).toBe('pass')
    b.apply({ phase: 'open', until: 50 }, 100)
    expect(b.admit(101)).toBe('pass')
  })
})

const route = (gateway: string, model = 'm'): Route => ({
  gateway: {
    id: gateway,
    protocol: 'openai-chat',
    baseUrl: 'http://x',
    apiKey: undefined,
    timeoutMs: 1_000,
    enabled: true,
    policy: resolvePolicy({ breaker: POLICY }),
  },
  upstreamModel: model,
})
const timeout = () => new GatewayError('UPSTREAM_TIMEOUT', 'x', { retryable: true, upstream: { kind: 'timeout' } })
const overloaded = () => new GatewayError('UPSTREAM_ERROR', 'x', { retryable: true, upstream: { kind: 'status', status: 503 } })

describe('breakers', () => {
  test('transport failures open the gateway breaker (every model on it skipped); error answers open only that model’s', async () => {
    const r = new Router(createMemoryBoard(), silentLogger)
    for (let i = 0; i < 3; i++) r.breakers.record(route('gw-a', 'm1'), timeout())
    expect(r.breakers.phase(gatewayKey(route('gw-a')))).toBe('open')
    expect(await r.breakers.admit(route('gw-a', 'm2'), 't')).toBe(false)
    for (let i = 0; i < 3; i++) r.breakers.record(route('gw-b', 'm1'), overloaded())
    expect(r.breakers.phase(routeKey(route('gw-b', 'm1')))).toBe('open')
    expect(r.breakers.phase(gatewayKey(route('gw-b')))).toBe('closed')
    expect(await r.breakers.admit(route('gw-b', 'm1'), 't')).toBe(false)
    expect(await r.breakers.admit(route('gw-b', 'm2'), 't')).toBe(true)
    expect(r.counters).toMatchObject({ breakerOpened: 2, breakerSkips: 2 })
  })

  test('a request refused by the upstream (400) counts as a healthy answer', () => {
    const r = new Router(createMemoryBoard(), silentLogger)
    const rejected = new GatewayError('UPSTREAM_REJECTED', 'x', { upstream: { kind: 'status', status: 400 } })
    for (let i = 0; i < 2; i++) r.breakers.record(route('gw-a'), overloaded())
    r.breakers.record(route('gw-a'), rejected)
    r.breakers.record(route('gw-a'), overloaded())
    expect(r.breakers.phase(routeKey(route('gw-a')))).toBe('closed')
  })

  const boards: [string, () => Promise<{ a: BreakerBoard; b: BreakerBoard; done: () => Promise<void> }>][] = [
    [
      'memory',
      async () => {
        const board = createMemoryBoard()
        return { a: board, b: board, done: async () => {} }
      },
    ],
    [
      'redis',
      async () => {
        const keys = freshKeyPrefix()
        const a = await createRedisBoard(REDIS_URL, keys.prefix)
        const b = await createRedisBoard(REDIS_URL, keys.prefix)
        return { a, b, done: async () => (await a.close(), await b.close(), await keys.clear()) }
      },
    ],
  ]
  for (const [name, make] of boards.filter(([n]) => SERVICES || n === 'memory')) {
    describe(`shared through the ${name} board`, () => {
      let cleanup: (() => Promise<void>) | undefined
      afterAll(async () => cleanup?.())

      test('one instance opens it, the other skips the route without a failure of its own; one probe across both; the close reaches both', async () => {
        const { a, b, done } = await make()
        cleanup = done
        let clock = 10_000
        const one = new Router(a, silentLogger, () => clock)
        const two = new Router(b, silentLogger, () => clock)
        for (let i = 0; i < 3; i++) one.breakers.record(route('gw-a'), timeout())
        const key = gatewayKey(route('gw-a'))
        await two.breakers.admit(route('gw-a'), 't') // creates the view; the message may come first or later
        await until(() => two.breakers.phase(key) === 'open', 'the second instance sees the open breaker')
        expect(await two.breakers.admit(route('gw-a'), 't')).toBe(false)
        // An instance started later catches up from the snapshot.
        const three = new Router(b, silentLogger, () => clock)
        await three.start(0)
        expect(await three.breakers.admit(route('gw-a'), 't')).toBe(false)
        clock += POLICY.cooldownMs
        const probes = await Promise.all([one.breakers.admit(route('gw-a'), 't'), two.breakers.admit(route('gw-a'), 't')])
        expect(probes.filter(Boolean)).toHaveLength(1)
        const prober = probes[0] ? one : two
        prober.breakers.record(route('gw-a'))
        for (const r of [one, two]) await until(() => r.breakers.phase(key) === 'closed', 'both see it closed')
        expect(await (prober === one ? two : one).breakers.admit(route('gw-a'), 't')).toBe(true)
        expect(await b.snapshot()).toEqual(new Map())
      })
    })
  }
})
