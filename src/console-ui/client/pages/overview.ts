// Overview: balance, reserved credit, the low-balance notice (docs/console.md "Auto top-up"),
// spend over the last 30 days by model, recent calls, and the first-run hint when the account has
// no key yet.
import { api, type Page } from '../api.ts'
import { spendChart } from '../chart.ts'
import { h } from '../dom.ts'
import { usd } from '../format.ts'
import { dailySpend } from '../spend.ts'
import type { Account, AutoTopup, Key, Log } from '../types.ts'
import { stat } from '../ui.ts'
import { logColumns } from './logs.ts'
import { table } from '../ui.ts'

const DAYS = 30
/** The columns of the overview's recent calls. */
const RECENT_COLUMNS = new Set(['Time', 'Model', 'Status', 'Cost', 'Request id'])
/** The chart reads at most this many recent calls (docs/console-ui.md "Limits"). */
const MAX_LOG_PAGES = 10

async function recentLogs(since: number): Promise<Log[]> {
  const out: Log[] = []
  let cursor: string | null = null
  for (let i = 0; i < MAX_LOG_PAGES; i++) {
    const page: Page<Log> = await api(`/api/logs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    out.push(...page.items)
    cursor = page.nextCursor
    if (!cursor || Date.parse(page.items[page.items.length - 1]!.createdAt) < since) break
  }
  return out
}

export async function overviewPage(view: HTMLElement) {
  view.append(h('h1', { tabindex: -1 }, 'Overview'))
  const now = new Date()
  const [account, logs, keys, auto] = await Promise.all([
    api<Account>('/api/wallet/account'),
    recentLogs(now.getTime() - DAYS * 86_400_000),
    api<Page<Key>>('/api/keys?limit=1'),
    api<AutoTopup>('/api/wallet/auto-topup'),
  ])
  const low = auto.lowBalance
    ? h(
        'p',
        { class: 'card warn', role: 'status' },
        `Low balance: under your threshold of ${usd(auto.threshold ?? 0)}.`,
        auto.inFlight ? ' A top-up is on its way.' : '',
      )
    : null
  const pending =
    account.pendingTopups.count > 0
      ? h('p', { class: 'muted' }, `${account.pendingTopups.count} top-up(s) of ${usd(account.pendingTopups.amount)} pending.`)
      : null
  view.append(
    h(
      'dl',
      { class: 'stats' },
      stat('Balance', usd(account.balance), 'balance'),
      stat('Reserved', usd(account.reserved), 'reserved'),
      stat('Available', usd(account.available)),
      stat('Spent this month', usd(account.spentThisMonth)),
    ),
    pending ?? '',
    low ?? '',
    h(
      'p',
      { class: 'actions' },
      h('a', { class: 'button primary', href: '/console/topup' }, 'Top up'),
      h('a', { class: 'button secondary', href: '/console/keys' }, 'Manage API keys'),
    ),
  )
  if (keys.items.length === 0)
    view.append(
      h(
        'section',
        { class: 'card hint', 'aria-labelledby': 'first-run' },
        h('h2', { id: 'first-run' }, 'Get started'),
        h('p', null, 'Create an API key, then call the API with it — the keys page shows how with curl and the openai SDK.'),
        h('a', { class: 'button primary', href: '/console/keys' }, 'Create an API key'),
      ),
    )
  view.append(spendChart(dailySpend(logs, DAYS, now)))
  const recent = logs.slice(0, 10)
  // The overview's card is narrower than the logs page: its table keeps the columns a glance needs
  // and the request id whole (docs/console-ui.md, the pages table); tokens and latency are on the logs page.
  const recentColumns = logColumns.filter((c) => RECENT_COLUMNS.has(c.label))
  view.append(
    h(
      'section',
      { 'aria-labelledby': 'recent' },
      h('h2', { id: 'recent' }, 'Recent calls'),
      recent.length ? table('Recent calls', recentColumns, recent).wrap : h('p', { class: 'empty' }, 'No calls yet.'),
      h('p', null, h('a', { href: '/console/logs' }, 'All request logs')),
    ),
  )
}
