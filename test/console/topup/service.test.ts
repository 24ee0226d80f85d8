// The top-up policy, as a table: which USD amounts become which micro-USD, within bounds.
import { describe, expect, test } from 'bun:test'
import { policyAmount, topupBounds } from '../../../src/console/topup/service.ts'

describe('top-up policy', () => {
  const bounds = topupBounds({ topupMinUsd: 5, topupMaxUsd: 500 })
  test.each([
    [5, 5_000_000n],
    [500, 500_000_000n],
    [25.5, 25_500_000n],
    [0.1 + 0.2 + 9.7, 10_000_000n],
    [4.99, undefined],
    [500.01, undefined],
    [10.001, undefined],
    [-5, undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
  ])('%p USD', (usd, micros) => {
    expect(policyAmount(usd, bounds)).toBe(micros)
  })

  test('the technical maximum of 10,000 USD holds whatever the policy', () => {
    expect(topupBounds({ topupMinUsd: 1, topupMaxUsd: 10_000 }).max).toBe(10_000_000_000n)
    expect(policyAmount(10_000.01, topupBounds({ topupMinUsd: 1, topupMaxUsd: 10_000 }))).toBeUndefined()
  })
})
