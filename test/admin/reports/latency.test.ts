import { describe, expect, test } from 'bun:test'
import { bucketUpperMs, percentileMs } from '../../../src/admin/reports/latency.ts'

/** The bucket the SQL function latency_bucket gives `ms` (migration *_operators). */
const bucketOf = (ms: number) => Math.floor(4 * Math.log2(ms + 1))

describe('latency percentiles from buckets', () => {
  test('a bucket holds its calls below its upper edge, at most ~19 % above them', () => {
    for (const ms of [0, 1, 7, 100, 115, 999, 30_000]) {
      const upper = bucketUpperMs(bucketOf(ms))
      expect(upper).toBeGreaterThanOrEqual(ms)
      expect(upper).toBeLessThanOrEqual(Math.max(1, Math.ceil((ms + 1) * 2 ** 0.25)))
    }
  })

  test('p50 and p95 are the edges of the buckets holding those ranks; no calls → null', () => {
    const buckets = [
      { bucket: bucketOf(1000), calls: 5n },
      { bucket: bucketOf(10), calls: 50n },
      { bucket: bucketOf(100), calls: 45n },
    ]
    expect(percentileMs(buckets, 0.5)).toBe(bucketUpperMs(bucketOf(10)))
    expect(percentileMs(buckets, 0.51)).toBe(bucketUpperMs(bucketOf(100)))
    expect(percentileMs(buckets, 0.95)).toBe(bucketUpperMs(bucketOf(100)))
    expect(percentileMs(buckets, 0.96)).toBe(bucketUpperMs(bucketOf(1000)))
    expect(percentileMs([], 0.5)).toBeNull()
    expect(percentileMs([{ bucket: 3, calls: 0n }], 0.5)).toBeNull()
  })
})
