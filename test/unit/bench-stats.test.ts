// The benchmark's own arithmetic (bench/stats.ts, bench/sut-metrics.ts): what the soak's slope and
// the event-loop delay columns are computed from.
import { describe, expect, test } from 'bun:test'
import { median, quantile, slope } from '../../bench/stats.ts'
import { parseGauges } from '../../bench/sut-metrics.ts'

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

  test('gauges are read from a Prometheus exposition by exact name, labelled samples summed', () => {
    const text = [
      '# HELP nodejs_eventloop_lag_p99_seconds The 99th percentile of the recorded event loop delays.',
      '# TYPE nodejs_eventloop_lag_p99_seconds gauge',
      'nodejs_eventloop_lag_p99_seconds 0.012058623',
      'nodejs_eventloop_lag_p99_seconds_extra 7',
      'tollgate_outbox_depth{shard="0"} 3',
      'tollgate_outbox_depth{shard="1"} 4',
    ].join('\n')
    const g = parseGauges(text, ['nodejs_eventloop_lag_p99_seconds', 'tollgate_outbox_depth', 'absent'])
    expect(g).toEqual({ nodejs_eventloop_lag_p99_seconds: 0.012058623, tollgate_outbox_depth: 7 })
  })
})
