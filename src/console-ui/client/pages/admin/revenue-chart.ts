// Revenue (top-ups) and usage per day, side by side, in an SVG of fixed size, with the same
// numbers as a table for screen readers and keyboards. Each series has its own scale: a day's
// usage is often a thousandth of one top-up, and on one scale it would not show at all.
import { h, svg } from '../../dom.ts'
import { usd } from '../../format.ts'
import type { Day } from './types.ts'

const W = 600
const H = 160
const SERIES = [
  ['topups', 'Top-ups', 'c0'],
  ['usage', 'Usage', 'c1'],
] as const
const FILL = { c0: '#2563eb', c1: '#d97706' }

export function revenueChart(days: Day[]): HTMLElement {
  const top = (key: 'topups' | 'usage') => Math.max(0, ...days.map((d) => d[key]))
  const tops = { topups: top('topups'), usage: top('usage') }
  const max = Math.max(tops.topups, tops.usage)
  const slot = W / Math.max(1, days.length)
  const bars = days.flatMap((d, i) =>
    SERIES.map(([key, label, c], s) => {
      const v = d[key]
      const height = v > 0 ? (v / tops[key]) * (H - 4) : 0
      return v > 0
        ? svg(
            'rect',
            { x: i * slot + 1 + (s * (slot - 2)) / 2, y: H - height, width: (slot - 2) / 2, height, fill: FILL[c] },
            svg('title', null, `${d.day} · ${label}: ${usd(v)}`),
          )
        : null
    }),
  )
  const total = (key: 'topups' | 'usage') => days.reduce((n, d) => n + d[key], 0)
  const label = `Top-ups ${usd(total('topups'))} and usage ${usd(total('usage'))} over ${days.length} day(s).`
  return h(
    'figure',
    { class: 'card chart-card' },
    h('figcaption', null, h('h2', null, 'Revenue and usage per day'), h('p', { class: 'muted' }, 'Each series on its own scale.')),
    h(
      'div',
      { class: 'chart-box' },
      max > 0
        ? svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': label, class: 'chart' }, bars)
        : h('p', { class: 'empty' }, 'No top-ups or usage in this period.'),
    ),
    h(
      'ul',
      { class: 'legend', 'aria-label': 'Series' },
      SERIES.map(([key, name, c]) =>
        h('li', null, h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }), `${name} `, h('strong', null, usd(total(key)))),
      ),
    ),
    h(
      'details',
      { class: 'as-table' },
      h('summary', null, 'Show as a table'),
      h(
        'table',
        null,
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'Day (UTC)'),
            h('th', { scope: 'col', class: 'num' }, 'Top-ups'),
            h('th', { scope: 'col', class: 'num' }, 'Usage'),
          ),
        ),
        h(
          'tbody',
          null,
          days.map((d) =>
            h('tr', null, h('td', null, d.day), h('td', { class: 'num' }, usd(d.topups)), h('td', { class: 'num' }, usd(d.usage))),
          ),
        ),
      ),
    ),
  )
}
