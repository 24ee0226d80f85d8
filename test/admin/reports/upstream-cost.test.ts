import { describe, expect, test } from 'bun:test'
import { sumKnown, upstreamCostMicros } from '../../../src/admin/reports/upstream-cost.ts'

const tokens = { input: 1_000_000n, output: 500_000n, cacheRead: 2_000_000n, cacheWrite: 0n }

describe('upstream cost', () => {
  test('route prices (nano-USD per 1M) × tokens, rounded up once; cache without a price pays input', () => {
    // 1M × $0.10 + 0.5M × $0.40 + 2M × $0.01 = $0.32
    expect(upstreamCostMicros(tokens, { input: 100_000_000n, output: 400_000_000n, cacheRead: 10_000_000n, cacheWrite: null })).toBe(
      320_000n,
    )
    // cache read at the input price: $0.10 + $0.20 + $0.20
    expect(upstreamCostMicros(tokens, { input: 100_000_000n, output: 400_000_000n, cacheRead: null, cacheWrite: null })).toBe(500_000n)
    expect(
      upstreamCostMicros(
        { input: 1n, output: 0n, cacheRead: 0n, cacheWrite: 0n },
        { input: 1n, output: 1n, cacheRead: null, cacheWrite: null },
      ),
    ).toBe(1n)
  })

  test('no cost, or a cost without input or output price, is unknown (null), not zero', () => {
    expect(upstreamCostMicros(tokens, undefined)).toBeNull()
    expect(upstreamCostMicros(tokens, { input: null, output: 1n, cacheRead: null, cacheWrite: null })).toBeNull()
    expect(sumKnown([1n, 2n])).toBe(3n)
    expect(sumKnown([1n, null])).toBeNull()
    expect(sumKnown([])).toBe(0n)
  })
})
