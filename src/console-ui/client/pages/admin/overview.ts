// The operator's overview (docs/operators.md "Reports"): for today, 7 or 30 days — revenue,
// usage, upstream cost and margin (unknown when a route has no cost), calls and errors, the
// chart per day, models with latency, top users.
import { api, qs } from '../../api.ts'
import { h } from '../../dom.ts'
import { int, usd } from '../../format.ts'
import type { Query } from '../../router.ts'
import { stat, table } from '../../ui.ts'
import { known, operatorPage, percent } from './frame.ts'
import { revenueChart } from './revenue-chart.ts'
import type { Day, ModelLine, Summary } from './types.ts'

const PERIODS: [days: string, label: string][] = [
  ['1', 'Today'],
  ['7', '7 days'],
  ['30', '30 days'],
]
const DAY_MS = 86_400_000
const ms = (n: number | null) => (n === null ? '—' : `${int(n)} ms`)

/** The UTC dates of the last `days` days, today included: from included, to excluded. */
function period(days: number) {
  const today = Date.parse(new Date().toISOString().slice(0, 10))
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10)
  return { from: iso(today - (days - 1) * DAY_MS), to: iso(today + DAY_MS) }
}

const modelColumns = [
  { label: 'Model', cell: (m: ModelLine) => m.model },
  { label: 'Calls', cell: (m: ModelLine) => int(m.calls), num: true },
  { label: 'Error rate', cell: (m: ModelLine) => percent(m.errorRate), num: true },
  { label: 'Usage', cell: (m: ModelLine) => usd(m.usage), num: true },
  { label: 'Upstream cost', cell: (m: ModelLine) => known(m.upstreamCost, usd), num: true },
  { label: 'Margin', cell: (m: ModelLine) => known(m.margin, usd), num: true },
  { label: 'p50', cell: (m: ModelLine) => ms(m.p50Ms), num: true },
  { label: 'p95', cell: (m: ModelLine) => ms(m.p95Ms), num: true },
]

export async function adminOverviewPage(view: HTMLElement, _params: Record<string, string>, query: Query) {
  if (!(await operatorPage(view, 'Operator overview'))) return
  const days = PERIODS.some(([d]) => d === query.get('days')) ? query.get('days')! : '30'
  const p = period(Number(days))
  const [summary, daily] = await Promise.all([
    api<Summary>(`/api/admin/reports/summary${qs(p)}`),
    api<{ items: Day[] }>(`/api/admin/reports/daily${qs(p)}`),
  ])
  view.append(
    h(
      'nav',
      { class: 'subnav', 'aria-label': 'Period' },
      h(
        'ul',
        null,
        PERIODS.map(([d, label]) =>
          h('li', null, h('a', { href: `/console/admin?days=${d}`, 'aria-current': d === days ? 'page' : undefined }, label)),
        ),
      ),
    ),
    h(
      'dl',
      { class: 'stats' },
      stat('Top-ups', usd(summary.topups.amount), 'revenue'),
      stat('Usage billed', usd(summary.usage), 'usage'),
      stat('Upstream cost', known(summary.upstreamCost, usd), 'upstream'),
      stat('Margin', known(summary.margin, usd), 'margin'),
      stat('Calls', int(summary.calls), 'calls'),
      stat('Error rate', percent(summary.errorRate), 'error-rate'),
    ),
    revenueChart(daily.items),
    h(
      'section',
      { 'aria-labelledby': 'by-model' },
      h('h2', { id: 'by-model' }, 'Models'),
      summary.models.length ? table('Models', modelColumns, summary.models).wrap : h('p', { class: 'empty' }, 'No calls in this period.'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'top-users' },
      h('h2', { id: 'top-users' }, 'Top users'),
      summary.topUsers.length
        ? table(
            'Top users',
            [
              { label: 'User', cell: (u) => h('a', { href: `/console/admin/users/${encodeURIComponent(u.userId)}` }, u.email ?? u.userId) },
              { label: 'Calls', cell: (u) => int(u.calls), num: true },
              { label: 'Usage', cell: (u) => usd(u.usage), num: true },
            ],
            summary.topUsers,
          ).wrap
        : h('p', { class: 'empty' }, 'No usage in this period.'),
    ),
  )
}
