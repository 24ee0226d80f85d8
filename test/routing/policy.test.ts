// A gateway's failover policy: every field defaulted, the catalog's values kept, bounds checked.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { DEFAULT_POLICY, PolicyFile, resolvePolicy } from '../../src/routing/policy.ts'

describe('resolvePolicy', () => {
  test.each([null, undefined, {}])('%p gets every default', (file) => {
    expect(resolvePolicy(file)).toEqual(DEFAULT_POLICY)
  })

  test('given fields are kept and the rest defaulted, the breaker member by member', () => {
    const p = resolvePolicy({ retries: 0, deadlineMs: 5_000, breaker: { failures: 2 } })
    expect(p.retries).toBe(0)
    expect(p.deadlineMs).toBe(5_000)
    expect(p.backoffMs).toBe(DEFAULT_POLICY.backoffMs)
    expect(p.breaker).toEqual({ ...DEFAULT_POLICY.breaker, failures: 2 })
  })

  test('the backoff cap is never below the first backoff', () => {
    expect(resolvePolicy({ backoffMs: 10_000 }).backoffMaxMs).toBe(10_000)
    expect(resolvePolicy({ backoffMs: 100, backoffMaxMs: 50 }).backoffMaxMs).toBe(100)
    expect(resolvePolicy({ backoffMs: 100, backoffMaxMs: 900 }).backoffMaxMs).toBe(900)
  })

  test('resolving does not change the defaults', () => {
    const before = structuredClone(DEFAULT_POLICY)
    resolvePolicy({ breaker: { enabled: false } }).breaker.cooldownMs = 1
    expect(DEFAULT_POLICY).toEqual(before)
  })
})

describe('PolicyFile', () => {
  test('a full, valid policy is accepted', () => {
    expect(
      Value.Check(PolicyFile, {
        retries: 3,
        backoffMs: 100,
        backoffMaxMs: 1_000,
        retryAfterMaxMs: 5_000,
        deadlineMs: 30_000,
        firstTokenMs: 5_000,
        breaker: { enabled: true, failures: 3, failureRate: 0.25, window: 10, cooldownMs: 1_000 },
      }),
    ).toBe(true)
  })

  test.each([
    { retries: 11 },
    { retries: -1 },
    { firstTokenMs: 0 },
    { backoffMs: 1.5 },
    { breaker: { failureRate: 0 } },
    { breaker: { failureRate: 1.5 } },
    { breaker: { window: 1 } },
    { breaker: { unknown: 1 } },
    { retry: 2 },
  ])('%p is refused', (file) => expect(Value.Check(PolicyFile, file)).toBe(false))
})
