// The breakers' read-only health view (src/routing/breakers.ts `health`, docs/operators.md
// "Models and gateways"): each of a route's two breakers as this instance sees them, and when the
// route may be tried again; reading changes nothing.
import { describe, expect, test } from 'bun:test'
import { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { resolvePolicy } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard } from '../../src/store/breaker-board.ts'

const policy = resolvePolicy({ retries: 0, breaker: { failures: 2, cooldownMs: 1_000 } })
const route = (upstreamModel: string): Route => ({
  gateway: { id: 'gw-a', protocol: 'openai-chat', baseUrl: 'http://x', apiKey: undefined, timeoutMs: 1_000, enabled: true, policy },
  upstreamModel,
})
const status500 = () => new GatewayError('UPSTREAM_ERROR', 'x', { retryable: true, upstream: { kind: 'status', status: 500 } })
const timeout = () => new GatewayError('UPSTREAM_TIMEOUT', 'x', { retryable: true, upstream: { kind: 'timeout' } })

describe('breakers health', () => {
  test('closed for a route never seen; a route opened by error answers shows open with its time to the probe', () => {
    let now = 10_000
    const { breakers } = new Router(
      createMemoryBoard(() => now),
      silentLogger,
      () => now,
    )
    expect(breakers.health('gw-a', 'm1')).toEqual({ gateway: 'closed', route: 'closed', nextProbeInMs: 0 })
    breakers.record(route('m1'), status500())
    breakers.record(route('m1'), status500())
    now += 400
    expect(breakers.health('gw-a', 'm1')).toEqual({ gateway: 'closed', route: 'open', nextProbeInMs: 600 })
    // Another model on the same gateway is unaffected; reading twice changes nothing.
    expect(breakers.health('gw-a', 'm2')).toEqual({ gateway: 'closed', route: 'closed', nextProbeInMs: 0 })
    expect(breakers.health('gw-a', 'm1').route).toBe('open')
    now += 600
    expect(breakers.health('gw-a', 'm1')).toEqual({ gateway: 'closed', route: 'open', nextProbeInMs: 0 })
  })

  test('transport failures open the gateway breaker, which every route of the gateway shows', () => {
    const now = 0
    const { breakers } = new Router(
      createMemoryBoard(() => now),
      silentLogger,
      () => now,
    )
    breakers.record(route('m1'), timeout())
    breakers.record(route('m1'), timeout())
    expect(breakers.health('gw-a', 'm2')).toEqual({ gateway: 'open', route: 'closed', nextProbeInMs: 1_000 })
    expect(breakers.health('gw-a', '').gateway).toBe('open')
  })
})
