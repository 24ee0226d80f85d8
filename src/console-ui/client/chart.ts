// The overview's spend chart: stacked bars per day (one colour per model, a legend with totals)
// in an SVG of fixed size, with the same numbers as a table for screen readers and keyboards.
import { h, svg } from './dom.ts'
import { usd } from './format.ts'
import type { DailySpend } from './spend.ts'

const COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#475569']
const W = 600
const H = 160

export function spendChart(data: DailySpend): HTMLElement {
  const colour = (i: number) => COLOURS[Math.min(i, COLOURS.length - 1)]!
  const bar = W / data.days.length
  const bars = data.days.flatMap((d, i) => {
    let y = H
    return data.models.map((m, mi) => {
      const v = data.cost[m]![i]!
      const height = data.max > 0 ? (v / data.max) * (H - 4) : 0
      y -= height
      return v > 0
        ? svg('rect', { x: i * bar + 1, y, width: bar - 2, height, fill: colour(mi) }, svg('title', null, `${d} · ${m}: ${usd(v)}`))
        : null
    })
  })
  const label = `Spend over the last ${data.days.length} days: ${usd(data.total)} in total${data.models.length ? `, across ${data.models.length} model${data.models.length > 1 ? 's' : ''}` : ''}.`
  const chart = svg(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': label, class: 'chart' },
    svg('line', { x1: 0, y1: H - 0.5, x2: W, y2: H - 0.5, class: 'axis' }),
    bars,
  )
  const legend = h(
    'ul',
    { class: 'legend', 'aria-label': 'Models' },
    data.models.map((m, i) =>
      h(
        'li',
        null,
        h('span', { class: `swatch c${Math.min(i, COLOURS.length - 1)}`, 'aria-hidden': 'true' }),
        `${m} `,
        h('strong', null, usd(data.cost[m]!.reduce((a, b) => a + b, 0))),
      ),
    ),
  )
  const rows = data.days.map((d, i) =>
    data.totals[i]! > 0 ? h('tr', null, h('td', null, d), h('td', { class: 'num' }, usd(data.totals[i]!))) : null,
  )
  const table = h(
    'details',
    { class: 'as-table' },
    h('summary', null, 'Show as a table'),
    h(
      'table',
      null,
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Day (UTC)'), h('th', { scope: 'col', class: 'num' }, 'Spend'))),
      h('tbody', null, rows),
    ),
  )
  return h(
    'figure',
    { class: 'card chart-card' },
    h('figcaption', null, h('h2', null, 'Spend, last 30 days'), h('span', { class: 'muted' }, usd(data.total))),
    h('div', { class: 'chart-box' }, data.total > 0 ? chart : h('p', { class: 'empty' }, 'No spend in the last 30 days yet.')),
    h(
      'div',
      { class: 'axis-labels', 'aria-hidden': 'true' },
      h('span', null, data.days[0]),
      h('span', null, data.days[data.days.length - 1]),
    ),
    legend,
    table,
  )
}
