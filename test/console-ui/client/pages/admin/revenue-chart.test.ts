// The operator's revenue chart in Chromium: top-ups and usage side by side per day, scaled to the
// largest value of its own series (usage stays visible beside a large top-up), totals in the label and legend, every day in the table; nothing → a sentence.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../../../client-page.ts'

type Rc = typeof import('../../../../../src/console-ui/client/pages/admin/revenue-chart.ts')
const cp = clientPage({ rc: 'pages/admin/revenue-chart.ts' })
beforeAll(() => cp.open(), 60_000)

test('two series per day, heights in proportion, totals and table', async () => {
  const r = await cp.page.evaluate(() => {
    const { revenueChart } = window.__client.rc as Rc
    const el = revenueChart([
      { day: '2026-05-01', topups: 100, usage: 25, calls: 3 },
      { day: '2026-05-02', topups: 0, usage: 50, calls: 1 },
    ])
    const rects = [...el.querySelectorAll('rect')]
    return {
      titles: rects.map((x) => x.querySelector('title')!.textContent),
      heights: rects.map((x) => Math.round(Number(x.getAttribute('height')))),
      label: el.querySelector('svg')!.getAttribute('aria-label'),
      legend: [...el.querySelectorAll('.legend li')].map((li) => li.textContent),
      rows: [...el.querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
    }
  })
  expect(r.titles).toEqual(['2026-05-01 · Top-ups: $100.00', '2026-05-01 · Usage: $25.00', '2026-05-02 · Usage: $50.00'])
  expect(r.heights).toEqual([156, 78, 156])
  expect(r.label).toBe('Top-ups $100.00 and usage $75.00 over 2 day(s).')
  expect(r.legend).toEqual(['Top-ups $100.00', 'Usage $75.00'])
  expect(r.rows).toEqual([
    ['2026-05-01', '$100.00', '$25.00'],
    ['2026-05-02', '$0.00', '$50.00'],
  ])
})

test('a day of small usage beside a large top-up still shows its bar at full height', async () => {
  const heights = await cp.page.evaluate(() => {
    const { revenueChart } = window.__client.rc as Rc
    const el = revenueChart([{ day: '2026-05-01', topups: 100, usage: 0.01, calls: 1 }])
    return [...el.querySelectorAll('rect')].map((x) => Math.round(Number(x.getAttribute('height'))))
  })
  expect(heights).toEqual([156, 156])
})

test('a period without money says so', async () => {
  const r = await cp.page.evaluate(() => {
    const { revenueChart } = window.__client.rc as Rc
    const el = revenueChart([{ day: '2026-05-01', topups: 0, usage: 0, calls: 0 }])
    return { svg: el.querySelectorAll('svg').length, empty: el.querySelector('.empty')?.textContent }
  })
  expect(r).toEqual({ svg: 0, empty: 'No top-ups or usage in this period.' })
})

test('no page errors', () => expect(cp.errors).toEqual([]))
