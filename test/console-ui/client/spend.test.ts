// The overview chart's numbers (pure): per UTC day and model over the last 30 days, summed in
// micro-USD so many sub-cent charges add up exactly; old, future, free and failed calls ignored.
import { describe, expect, test } from 'bun:test'
import { dailySpend, lastDays } from '../../../src/console-ui/client/spend.ts'

const now = new Date('2026-03-01T10:00:00Z')

describe('daily spend', () => {
  test('the axis is the 30 UTC days ending today, across a month end', () => {
    const days = lastDays(30, now)
    expect(days).toHaveLength(30)
    expect(days[0]).toBe('2026-01-31')
    expect(days[28]).toBe('2026-02-28')
    expect(days[29]).toBe('2026-03-01')
  })

  test('sums per day and model exactly; models ordered by spend; outside the window ignored', () => {
    const logs = [
      ...Array.from({ length: 10 }, () => ({ model: 'a/small', cost: 0.000001, createdAt: '2026-03-01T09:59:59Z' })),
      { model: 'b/large', cost: 0.1, createdAt: '2026-03-01T00:00:00Z' },
      { model: 'b/large', cost: 0.2, createdAt: '2026-02-28T23:59:59Z' },
      { model: 'a/small', cost: 0.3, createdAt: '2026-01-30T23:59:59Z' },
      { model: 'c/free', cost: 0, createdAt: '2026-02-27T12:00:00Z' },
      { model: 'b/large', cost: 5, createdAt: '2026-03-02T00:00:00Z' },
    ]
    const s = dailySpend(logs, 30, now)
    expect(s.models).toEqual(['b/large', 'a/small'])
    expect(s.cost['a/small']![29]).toBe(0.00001)
    expect(s.cost['b/large']![29]).toBe(0.1)
    expect(s.cost['b/large']![28]).toBe(0.2)
    expect(s.totals[29]).toBe(0.10001)
    expect(s.max).toBe(0.2)
    expect(s.total).toBe(0.30001)
    expect(s.cost['a/small']!.slice(0, 29).every((v) => v === 0)).toBe(true)
  })

  test('no calls: an empty chart with a zero scale', () => {
    expect(dailySpend([], 30, now)).toMatchObject({ models: [], total: 0, max: 0 })
  })
})
