// The overview's spend chart in Chromium: one bar per day and model with spend, heights scaled
// to the busiest day, a label with the total, a legend with each model's sum, and the same
// numbers as a table (days without spend left out); an empty period says so instead.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../client-page.ts'

type Chart = typeof import('../../../src/console-ui/client/chart.ts')
type Spend = typeof import('../../../src/console-ui/client/spend.ts')
const cp = clientPage({ chart: 'chart.ts', spend: 'spend.ts' })
beforeAll(() => cp.open(), 60_000)

test('bars, label, legend and table from the daily spend', async () => {
  const r = await cp.page.evaluate(() => {
    const { spendChart } = window.__client.chart as Chart
    const { dailySpend } = window.__client.spend as Spend
    const now = new Date('2026-03-03T12:00:00Z')
    const data = dailySpend(
      [
        { model: 'a/one', cost: 2, createdAt: '2026-03-01T10:00:00Z' },
        { model: 'b/two', cost: 1, createdAt: '2026-03-01T11:00:00Z' },
        { model: 'a/one', cost: 1.5, createdAt: '2026-03-03T09:00:00Z' },
      ],
      3,
      now,
    )
    const el = spendChart(data)
    const rects = [...el.querySelectorAll('rect')]
    return {
      bars: rects.map((r) => r.querySelector('title')!.textContent),
      heights: rects.map((r) => Math.round(Number(r.getAttribute('height')))),
      label: el.querySelector('svg')!.getAttribute('aria-label'),
      legend: [...el.querySelectorAll('.legend li')].map((li) => li.textContent),
      table: [...el.querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
      axis: [...el.querySelectorAll('.axis-labels span')].map((s) => s.textContent),
    }
  })
  expect(r.bars).toEqual(['2026-03-01 · a/one: $2.00', '2026-03-01 · b/two: $1.00', '2026-03-03 · a/one: $1.50'])
  // the busiest day (3 USD) fills the chart's 156 px; the others in proportion
  expect(r.heights).toEqual([104, 52, 78])
  expect(r.label).toBe('Spend over the last 3 days: $4.50 in total, across 2 models.')
  expect(r.legend).toEqual(['a/one $3.50', 'b/two $1.00'])
  expect(r.table).toEqual([
    ['2026-03-01', '$3.00'],
    ['2026-03-03', '$1.50'],
  ])
  expect(r.axis).toEqual(['2026-03-01', '2026-03-03'])
})

test('no spend: no chart, a sentence instead', async () => {
  const r = await cp.page.evaluate(() => {
    const { spendChart } = window.__client.chart as Chart
    const { dailySpend } = window.__client.spend as Spend
    const el = spendChart(dailySpend([], 30, new Date('2026-03-03T12:00:00Z')))
    return { svg: el.querySelectorAll('svg').length, empty: el.querySelector('.empty')?.textContent }
  })
  expect(r).toEqual({ svg: 0, empty: 'No spend in the last 30 days yet.' })
})

test('no page errors', () => expect(cp.errors).toEqual([]))
