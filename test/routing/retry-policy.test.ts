// The retry decision (src/routing/retry-policy.ts) and Retry-After parsing, pure: which failures
// retry on the same route, the backoff's bounds, the Retry-After cap and the call's deadline.
import { describe, expect, test } from 'bun:test'
import { GatewayError, type UpstreamFailure } from '../../src/core/errors.ts'
import { retryAfterMs } from '../../src/lib/retry-after.ts'
import { DEFAULT_POLICY, resolvePolicy } from '../../src/routing/policy.ts'
import { afterFailure, backoffMs } from '../../src/routing/retry-policy.ts'

const failed = (upstream: UpstreamFailure) => new GatewayError('UPSTREAM_ERROR', 'x', { retryable: true, upstream })
const policy = resolvePolicy({ retries: 2, backoffMs: 100, backoffMaxMs: 300, retryAfterMaxMs: 2_000, deadlineMs: 5_000 })

describe('retry policy', () => {
  test('defaults apply to every field the catalog leaves out', () => {
    expect(resolvePolicy(undefined)).toEqual(DEFAULT_POLICY)
    expect(resolvePolicy({ retries: 0, breaker: { cooldownMs: 5 } })).toEqual({
      ...DEFAULT_POLICY,
      retries: 0,
      breaker: { ...DEFAULT_POLICY.breaker, cooldownMs: 5 },
    })
  })

  test('5xx, 429, 408, reset and timeout retry on the same route; 401/403/404, unreadable bodies and slow first tokens move on', () => {
    for (const u of [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 429 },
      { kind: 'status', status: 408 },
      { kind: 'connect' },
      { kind: 'timeout' },
    ] as UpstreamFailure[])
      expect(afterFailure(policy, failed(u), 0, 0, 0, () => 0).action).toBe('retry')
    for (const u of [
      { kind: 'status', status: 401 },
      { kind: 'status', status: 403 },
      { kind: 'status', status: 404 },
      { kind: 'body' },
      { kind: 'first-token' },
    ] as UpstreamFailure[])
      expect(afterFailure(policy, failed(u), 0, 0, 0, () => 0).action).toBe('next')
  })

  test('at most `retries` retries per route', () => {
    const err = failed({ kind: 'status', status: 500 })
    expect(afterFailure(policy, err, 1, 0).action).toBe('retry')
    expect(afterFailure(policy, err, 2, 0)).toEqual({ action: 'next', reason: 'retries exhausted' })
    expect(afterFailure(resolvePolicy({ retries: 0 }), err, 0, 0).action).toBe('next')
  })

  test('exponential backoff with equal jitter: each step between half and all of min(max, base·2^n)', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(policy, n, () => 0))).toEqual([50, 100, 150, 150])
    expect([0, 1, 2, 3].map((n) => backoffMs(policy, n, () => 1))).toEqual([100, 200, 300, 300])
    for (let i = 0; i < 200; i++) {
      const d = backoffMs(policy, 1)
      expect(d).toBeGreaterThanOrEqual(100)
      expect(d).toBeLessThanOrEqual(200)
    }
  })

  test('Retry-After is waited exactly up to the cap; beyond it the call moves on', () => {
    expect(afterFailure(policy, failed({ kind: 'status', status: 429, retryAfterMs: 1_500 }), 0, 0)).toEqual({
      action: 'retry',
      delayMs: 1_500,
    })
    expect(afterFailure(policy, failed({ kind: 'status', status: 429, retryAfterMs: 2_001 }), 0, 0)).toEqual({
      action: 'next',
      reason: 'retry-after beyond cap',
    })
  })

  test('no retry would end past the call deadline', () => {
    const err = failed({ kind: 'status', status: 429, retryAfterMs: 1_000 })
    expect(afterFailure(policy, err, 0, 4_000).action).toBe('retry')
    expect(afterFailure(policy, err, 0, 4_001)).toEqual({ action: 'next', reason: 'call deadline' })
  })

  test('a retry must leave room for a whole attempt: with the defaults a 30 s hang is not repeated, a quick 5xx is', () => {
    const hang = failed({ kind: 'timeout' })
    expect(afterFailure(DEFAULT_POLICY, hang, 0, 30_000, 30_000).action).toBe('next')
    expect(afterFailure(DEFAULT_POLICY, failed({ kind: 'status', status: 503 }), 0, 200, 30_000).action).toBe('retry')
    expect(afterFailure(DEFAULT_POLICY, hang, 0, 2_000, 2_000).action).toBe('retry')
  })

  test('a request the upstream refused is never retried', () => {
    const err = new GatewayError('UPSTREAM_REJECTED', 'x', { upstream: { kind: 'status', status: 400 } })
    expect(afterFailure(policy, err, 0, 0).action).toBe('next')
  })
})

describe('Retry-After parsing', () => {
  const h = (o: Record<string, string>) => new Headers(o)
  test('retry-after-ms wins, fractional milliseconds round up', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '250.2', 'retry-after': '9' }), 0)).toBe(251)
  })
  test('delay-seconds and HTTP-dates', () => {
    expect(retryAfterMs(h({ 'retry-after': '2' }), 0)).toBe(2_000)
    expect(retryAfterMs(h({ 'retry-after': '0.5' }), 0)).toBe(500)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3_000)
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0)
  })
  test('absent, negative or unreadable values are no hint', () => {
    expect(retryAfterMs(h({}), 0)).toBeUndefined()
    expect(retryAfterMs(h({ 'retry-after': '-3' }), 0)).toBeUndefined()
    expect(retryAfterMs(h({ 'retry-after': 'soon', 'retry-after-ms': 'x' }), 0)).toBeUndefined()
  })
})
