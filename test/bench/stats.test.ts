// The benchmark's own arithmetic (bench/stats.ts): what the soak's RSS slope and the tables'
// percentiles are computed from.
import { describe, expect, test } from 'bun:test'
import { median, quantile, slope } from '../../bench/stats.ts'

describe('bench statistics', () => {
  test('least-squares slope: exact on a line, 0 on a flat series, NaN without two distinct x', () => {
    expect(slope([1, 2, 3, 4], [10, 12, 14, 16])).toBeCloseTo(2, 12)
    expect(slope([1, 2, 3], [5, 5, 5])).toBe(0)
    expect(slope([1, 2, 3, 4], [100, 101, 99, 100])).toBeCloseTo(-0.2, 12)
    expect(slope([1], [1])).toBeNaN()
    expect(slope([2, 2], [1, 3])).toBeNaN()
  })

  test('quantile is nearest-rank on a sorted array; median sorts first', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1)
    expect(quantile(xs, 0.5)).toBe(51)
    expect(quantile(xs, 0.99)).toBe(100)
    expect(quantile([], 0.5)).toBeNaN()
    expect(median([3, 1, 2])).toBe(2)
  })
})
