import { describe, expect, test } from 'bun:test'
import { routeCost } from '../../src/admin/route-cost.ts'

describe('route cost', () => {
  test("a route's stored options.cost (USD per 1M) becomes nano-USD per 1M, exactly", () => {
    const options = { priority: 0, cost: { input: 0.1, output: 0.4, cacheRead: 0.000000001 } }
    expect(routeCost(options)).toEqual({ input: 100_000_000n, output: 400_000_000n, cacheRead: 1n, cacheWrite: null })
  })

  test('no options, options without cost, and null prices are unknown (null)', () => {
    const unknown = { input: null, output: null, cacheRead: null, cacheWrite: null }
    expect(routeCost(null)).toEqual(unknown)
    expect(routeCost({ weight: 3 })).toEqual(unknown)
    expect(routeCost({ cost: { input: null, output: 2 } })).toEqual({ ...unknown, output: 2_000_000_000n })
  })
})
