// The user's overview in Chromium: balance stats, pending top-ups and the low-balance notice,
// the get-started card only without a key, the spend chart from recent logs (paged until the
// 30 days are covered), and the ten most recent calls.
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type Overview = typeof import('../../../../src/console-ui/client/pages/overview.ts')
const account = {
  balance: 12.5,
  reserved: 0.25,
  available: 12.25,
  currency: 'USD',
  spentThisMonth: 3,
  pendingTopups: { count: 1, amount: 20 },
  topup: { min: 5, max: 500, providers: ['sandbox'] },
}
const auto = {
  enabled: true,
  threshold: 15,
  amount: 20,
  provider: 'sandbox',
  paymentMethodSaved: true,
  inFlight: true,
  lowBalance: true,
  lastError: null,
  setupUrl: null,
}
const log = (i: number, createdAt: string) => ({
  id: `req_${i}`,
  keyId: 'key_a',
  model: 'acme/chat-1',
  status: 200,
  errorCode: null,
  stream: false,
  inputTokens: 10,
  outputTokens: 5,
  cost: 0.5,
  latencyMs: 100,
  createdAt,
})
const recent = new Date().toISOString()
const cp = clientPage({ overview: 'pages/overview.ts' })

test('stats, notices, chart and recent calls for an account with keys', async () => {
  cp.stub({
    'GET /api/wallet/account': { body: account },
    'GET /api/wallet/auto-topup': { body: auto },
    'GET /api/keys': { body: { items: [{ id: 'key_a' }], nextCursor: null } },
    'GET /api/logs': (_, q) =>
      q.get('cursor') === null
        ? { body: { items: Array.from({ length: 12 }, (_, i) => log(i, recent)), nextCursor: 'p2' } }
        : { body: { items: [log(99, '2020-01-01T00:00:00Z')], nextCursor: 'p3' } },
  })
  await cp.open('/console')
  const r = await cp.page.evaluate(async () => {
    const view = document.getElementById('main')!
    await (window.__client.overview as Overview).overviewPage(view)
    return {
      stats: Object.fromEntries(
        [...view.querySelectorAll('.stat')].map((s) => [s.querySelector('dt')!.textContent, s.querySelector('dd')!.textContent]),
      ),
      pending: view.querySelector('p.muted')?.textContent,
      low: view.querySelector('.warn[role=status]')?.textContent,
      started: view.querySelectorAll('#first-run').length,
      chartLabel: view.querySelector('svg.chart')?.getAttribute('aria-label'),
      recentRows: view.querySelectorAll('section[aria-labelledby=recent] tbody tr').length,
    }
  })
  expect(r.stats).toEqual({ Balance: '$12.50', Reserved: '$0.25', Available: '$12.25', 'Spent this month': '$3.00' })
  expect(r.pending).toBe('1 top-up(s) of $20.00 pending.')
  expect(r.low).toBe('Low balance: under your threshold of $15.00. A top-up is on its way.')
  expect(r.started).toBe(0)
  // twelve calls of today at $0.50; the old page's call is outside the 30 days
  expect(r.chartLabel).toBe('Spend over the last 30 days: $6.00 in total, across 1 model.')
  expect(r.recentRows).toBe(10)
  // the second page reached back past 30 days: no third page asked for
  expect(cp.calls.filter((c) => c.path === '/api/logs').map((c) => c.query)).toEqual(['?limit=100', '?limit=100&cursor=p2'])
}, 60_000)

test('a new account: get started, no notices, no calls yet', async () => {
  cp.stub({
    'GET /api/wallet/account': { body: { ...account, pendingTopups: { count: 0, amount: 0 } } },
    'GET /api/wallet/auto-topup': { body: { ...auto, lowBalance: false } },
    'GET /api/keys': { body: { items: [], nextCursor: null } },
    'GET /api/logs': { body: { items: [], nextCursor: null } },
  })
  await cp.open('/console')
  const r = await cp.page.evaluate(async () => {
    const view = document.getElementById('main')!
    await (window.__client.overview as Overview).overviewPage(view)
    return {
      started: view.querySelector('#first-run')?.textContent,
      low: view.querySelectorAll('.warn').length,
      empty: [...view.querySelectorAll('.empty')].map((e) => e.textContent),
    }
  })
  expect(r).toEqual({ started: 'Get started', low: 0, empty: ['No spend in the last 30 days yet.', 'No calls yet.'] })
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
