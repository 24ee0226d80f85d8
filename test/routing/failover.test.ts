// withFailover (src/routing/failover.ts) with scripted attempts: what it returns, what it throws,
// what it counts, and what it takes from and gives back to a route's quota.
import { describe, expect, test } from 'bun:test'
import { CallEnded } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { settleQuota, withFailover } from '../../src/routing/failover.ts'
import { resolvePolicy, type PolicyFile } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard } from '../../src/store/breaker-board.ts'
import type { RouteLimits, RouteQuota } from '../../src/store/route-limits.ts'

const route = (id: string, policy: PolicyFile = {}, limits: Partial<Pick<Route, 'rpm' | 'tpm'>> = {}): Route => ({
  gateway: {
    id,
    protocol: 'openai-chat',
    baseUrl: 'http://x',
    apiKey: undefined,
    timeoutMs: 1_000,
    enabled: true,
    policy: resolvePolicy({ retries: 0, breaker: { enabled: false }, ...policy }),
  },
  upstreamModel: `m-${id}`,
  ...limits,
})

/** Route limits that admit everything and record what is taken and settled. */
function recordingLimits() {
  const taken: RouteQuota[] = []
  const settled: [string, number][] = []
  const limits: RouteLimits = {
    take: async (q) => (taken.push(q), { ok: true }),
    settle: async (q, tokens) => void settled.push([q.route, tokens]),
    close: async () => {},
  }
  return { limits, taken, settled }
}

const router = (limits?: RouteLimits) => new Router(createMemoryBoard(), silentLogger, Date.now, async () => {}, limits)
const upstream503 = () => new GatewayError('UPSTREAM_ERROR', 'x', { retryable: true, upstream: { kind: 'status', status: 503 } })

describe('withFailover', () => {
  test('the first route that answers is returned with its value; routes after it are not tried', async () => {
    const r = router()
    const tried: string[] = []
    const [a, b, c] = [route('a'), route('b'), route('c')]
    const served = await withFailover(
      r,
      [a, b, c],
      async (rt, ctx) => {
        tried.push(`${rt.gateway.id}:${ctx.hasNext}`)
        if (rt === a) throw upstream503()
        return 42
      },
      'req_1',
    )
    expect(served.value).toBe(42)
    expect(served.route).toBe(b)
    expect(tried).toEqual(['a:true', 'b:true'])
    expect(r.counters.snapshot()).toMatchObject({ attempts: 2, failovers: 1, retries: 0 })
  })

  test('an unexpected exception counts as a retryable upstream failure, not a crash', async () => {
    const r = router()
    const served = await withFailover(
      r,
      [route('a'), route('b')],
      async (rt) => {
        if (rt.gateway.id === 'a') throw new TypeError('socket went away')
        return 'ok'
      },
      'req_2',
    )
    expect(served.value).toBe('ok')
  })

  test('every route failing is 502 UPSTREAM_ERROR with the last failure as cause', async () => {
    const last = upstream503()
    const err = await withFailover(
      router(),
      [route('a'), route('b')],
      async (rt) => {
        throw rt.gateway.id === 'b' ? last : upstream503()
      },
      'req_3',
    ).catch((e: unknown) => e as GatewayError)
    expect(err).toBeInstanceOf(GatewayError)
    expect((err as GatewayError).status).toBe(502)
    expect((err as GatewayError).code).toBe('UPSTREAM_ERROR')
    expect((err as GatewayError).cause).toBe(last)
  })

  test('retries on the same route as its policy allows, counted', async () => {
    const r = router()
    let n = 0
    const served = await withFailover(
      r,
      [route('a', { retries: 2 })],
      async () => {
        if (++n < 3) throw upstream503()
        return n
      },
      'req_4',
    )
    expect(served.value).toBe(3)
    expect(r.counters.snapshot()).toMatchObject({ attempts: 3, retries: 2, failovers: 0, backingOff: 0 })
  })

  test('a call that has already ended tries nothing', async () => {
    let attempts = 0
    const err = await withFailover(router(), [route('a')], async () => ++attempts, 'req_5', {
      ended: { kind: 'client_left' },
      pause: (w) => w,
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CallEnded)
    expect((err as CallEnded).end).toEqual({ kind: 'client_left' })
    expect(attempts).toBe(0)
  })

  test('a 429 asking to wait beyond the policy cools the route: the next call skips it with 503 and Retry-After', async () => {
    const r = router()
    const a = route('a', { retryAfterMaxMs: 1_000 })
    const cooled = new GatewayError('RATE_LIMITED', 'x', {
      retryable: true,
      upstream: { kind: 'status', status: 429, retryAfterMs: 30_000 },
    })
    await withFailover(
      r,
      [a],
      async () => {
        throw cooled
      },
      'req_6',
    ).catch(() => {})
    let attempts = 0
    const err = (await withFailover(r, [a], async () => ++attempts, 'req_7').catch((e: unknown) => e)) as GatewayError
    expect(attempts).toBe(0)
    expect(err.code).toBe('UPSTREAM_UNAVAILABLE')
    expect(err.status).toBe(503)
    expect(Number(err.extra.headers?.['retry-after'])).toBeGreaterThan(25)
    expect(Number(err.extra.headers?.['retry-after'])).toBeLessThanOrEqual(30)
  })

  test('a limited route takes the call’s tokens; a failed attempt gives them all back, a served one keeps them for settlement', async () => {
    const rec = recordingLimits()
    const r = router(rec.limits)
    const a = route('a', {}, { tpm: 10_000 })
    const b = route('b', {}, { rpm: 5, tpm: 10_000 })
    const served = await withFailover(
      r,
      [a, b],
      async (rt) => {
        if (rt === a) throw upstream503()
        return 'ok'
      },
      'req_8',
      undefined,
      700,
    )
    expect(rec.taken.map((q) => [q.route, q.tokens, q.rpm, q.tpm])).toEqual([
      ['a|m-a', 700, undefined, 10_000],
      ['b|m-b', 700, 5, 10_000],
    ])
    await Bun.sleep(0)
    expect(rec.settled).toEqual([['a|m-a', 0]])
    expect(served.quota?.route).toBe('b|m-b')
  })
})

describe('settleQuota', () => {
  test('replaces the estimate only for a route with a tpm', async () => {
    const rec = recordingLimits()
    const r = router(rec.limits)
    settleQuota(r, undefined, 10)
    settleQuota(r, { route: 'rpm-only', rpm: 3, tpm: undefined, tokens: 5, nowMs: 0 }, 10)
    settleQuota(r, { route: 'tpm', rpm: undefined, tpm: 100, tokens: 5, nowMs: 0 }, 12)
    await Bun.sleep(0)
    expect(rec.settled).toEqual([['tpm', 12]])
  })

  test('a store that cannot settle is logged, never thrown at the call', async () => {
    const warned: string[] = []
    const limits: RouteLimits = {
      take: async () => ({ ok: true }),
      settle: async () => {
        throw new Error('redis down')
      },
      close: async () => {},
    }
    const log = { ...silentLogger, warn: (msg: string) => void warned.push(msg) }
    expect(() => settleQuota({ limits, log }, { route: 'r', rpm: undefined, tpm: 10, tokens: 1, nowMs: 0 }, 2)).not.toThrow()
    await Bun.sleep(0)
    expect(warned).toEqual(['route token count not corrected'])
  })
})
