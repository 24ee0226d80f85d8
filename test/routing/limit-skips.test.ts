// docs/failover.md "Upstream limits" in the failover loop: a route whose quota is spent is
// skipped (no attempt, no breaker), all skipped is 503 with the window's Retry-After, and a
// quota store that cannot answer lets the call through.
import { describe, expect, test } from 'bun:test'
import type { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { withFailover } from '../../src/routing/failover.ts'
import { resolvePolicy } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard } from '../../src/store/breaker-board.ts'
import { createMemoryRouteLimits, type RouteLimits } from '../../src/store/route-limits.ts'

const route = (id: string, rpm?: number): Route => ({
  gateway: {
    id,
    protocol: 'openai-chat',
    baseUrl: 'http://x',
    apiKey: undefined,
    timeoutMs: 1_000,
    enabled: true,
    policy: resolvePolicy({}),
  },
  upstreamModel: 'm',
  ...(rpm ? { rpm } : {}),
})
const router = (limits: RouteLimits, now = () => 1_800_000_030_000) =>
  new Router(createMemoryBoard(), silentLogger, now, async () => {}, limits)
const answer = async (r: Route) => r.gateway.id

describe('route limits in the failover loop', () => {
  test('the limited route serves up to its rpm, then is skipped for the next one; its breaker never hears of it', async () => {
    const r = router(createMemoryRouteLimits())
    const routes = [route('a', 2), route('b')]
    const served = []
    for (let i = 0; i < 4; i++) served.push((await withFailover(r, routes, answer, `r${i}`)).value)
    expect(served).toEqual(['a', 'a', 'b', 'b'])
    expect(r.counters.limitSkips).toBe(2)
    expect(r.counters.failovers).toBe(0)
    expect(r.breakers.phase('gw:a|model:m')).toBe('closed')
  })

  test('every route at its limit: 503 UPSTREAM_UNAVAILABLE, Retry-After when the window turns', async () => {
    const r = router(createMemoryRouteLimits())
    const routes = [route('a', 1), route('b', 1)]
    await withFailover(r, routes, answer, 'r1')
    await withFailover(r, routes, answer, 'r2')
    const err = (await withFailover(r, routes, answer, 'r3').catch((e) => e)) as GatewayError
    expect(err.code).toBe('UPSTREAM_UNAVAILABLE')
    expect(err.extra.headers?.['retry-after']).toBe('30')
  })

  test('a quota store that cannot answer lets the call through', async () => {
    const broken: RouteLimits = { take: () => Promise.reject(new Error('redis down')), settle: async () => {}, close: async () => {} }
    expect((await withFailover(router(broken), [route('a', 1)], answer, 'r1')).value).toBe('a')
  })
})
