// Transactions in Chromium: the list asks the ledger with the URL's filters and shows kind,
// status, signed amount and method; the detail shows what its kind adds (usage, refunds, events).
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type Tx = typeof import('../../../../src/console-ui/client/pages/transactions.ts')
const txn = (o: object) => ({
  id: 'txn_1',
  kind: 'usage',
  status: 'completed',
  amount: -0.000221,
  method: 'api',
  reference: 'req_1',
  requestId: 'req_1',
  createdAt: '2026-11-24T16:40:00Z',
  completedAt: '2026-11-24T16:40:01Z',
  ...o,
})
const cp = clientPage(
  { tx: 'pages/transactions.ts' },
  {
    'GET /api/wallet/transactions': {
      body: { items: [txn({}), txn({ id: 'txn_2', kind: 'topup', amount: 10, method: null, status: 'pending' })], nextCursor: null },
    },
    'GET /api/wallet/transactions/txn_1': {
      body: txn({
        model: 'acme/chat-1',
        usage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 5 },
        refunded: 0.0001,
        events: [{ receivedAt: '2026-11-24T16:41:00Z', type: 'checkout.session.completed', outcome: 'credited' }],
      }),
    },
  },
)

test('the list: filters from the URL sent to the API, rows as a person reads them', async () => {
  await cp.open('/console/transactions?kind=usage')
  const rows = await cp.page.evaluate(async () => {
    const { transactionsPage } = window.__client.tx as Tx
    const view = document.getElementById('main')!
    await transactionsPage(view, {}, new URLSearchParams(location.search))
    return [...view.querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))
  })
  expect(rows).toEqual([
    ['2026-11-24 16:40 UTC', 'Usage', 'completed', '−$0.000221', 'api'],
    ['2026-11-24 16:40 UTC', 'Top-up', 'pending', '+$10.00', '—'],
  ])
  expect(cp.calls.at(-1)).toMatchObject({ path: '/api/wallet/transactions', query: '?kind=usage&limit=50' })
}, 60_000)

test('the detail: amount in the heading, tokens, refunded, provider events', async () => {
  await cp.open('/console/transactions/txn_1')
  const r = await cp.page.evaluate(async () => {
    const { transactionPage } = window.__client.tx as Tx
    const view = document.getElementById('main')!
    await transactionPage(view, { id: 'txn_1' })
    const dl = [...view.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent])
    return {
      h1: view.querySelector('h1')!.textContent,
      dl: Object.fromEntries(dl),
      events: [...view.querySelectorAll('li')].map((li) => li.textContent),
    }
  })
  expect(r.h1).toBe('Usage −$0.000221')
  expect(r.dl).toMatchObject({
    Model: 'acme/chat-1',
    Tokens: '1,200 in, 30 out, 0 cache read, 0 cache write, 5 reasoning',
    Refunded: '$0.0001',
    'Request id': 'req_1',
    Id: 'txn_1',
  })
  expect(r.events).toEqual(['2026-11-24 16:41 UTC · checkout.session.completed → credited'])
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
