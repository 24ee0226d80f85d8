// Ledger health in Chromium: backlog, lag and dead letters as stats; each dead letter with its
// record and Retry / Discard (with the note) buttons that call the admin API and redraw.
import { expect, test } from 'bun:test'
import { clientPage } from '../../../client-page.ts'

type Ledger = typeof import('../../../../../src/console-ui/client/pages/admin/ledger.ts')
let letters = [
  { id: 'dl_1', requestId: 'req_9', error: 'invalid byte sequence', raw: '{"requestId":"req_9"}', createdAt: '2026-02-03T04:05:00Z' },
]
const cp = clientPage(
  { ledger: 'pages/admin/ledger.ts' },
  {
    'GET /api/auth/me': { body: { id: 'usr_op', email: 'op@example.com', role: 'admin' } },
    'GET /api/admin/ledger/health': () => ({
      body: { outbox: { backlog: 1234, writerLagMs: 56 }, deadLetters: { count: letters.length, oldestAt: null } },
    }),
    'GET /api/admin/ledger/dead-letters': () => ({ body: { items: letters, nextCursor: null } }),
    'POST /api/admin/ledger/dead-letters/dl_1/discard': () => ((letters = []), { body: { ok: true } }),
    'POST /api/admin/ledger/dead-letters/dl_1/retry': {
      status: 409,
      body: { error: { code: 'CONFLICT', message: 'Postgres refused it again.' } },
    },
  },
)

test('stats and a dead letter; retry refused is said; discard with a note redraws without it', async () => {
  await cp.open('/console/admin/ledger')
  const r = await cp.page.evaluate(async () => {
    const view = document.getElementById('main')!
    await (window.__client.ledger as Ledger).adminLedgerPage(view)
    const stats = () =>
      Object.fromEntries(
        [...view.querySelectorAll('.stat')].map((s) => [s.querySelector('dt')!.textContent, s.querySelector('dd')!.textContent]),
      )
    const first = { stats: stats(), card: view.querySelector('section[aria-label="Dead letter dl_1"]')?.textContent }
    const buttons = () => [...view.querySelectorAll('section button')] as HTMLButtonElement[]
    buttons()
      .find((b) => b.textContent === 'Retry dl_1')!
      .click()
    await new Promise((res) => setTimeout(res, 300))
    const refused = view.querySelector('section [role=alert]')?.textContent
    ;(view.querySelector('section input[name=note]') as HTMLInputElement).value = 'duplicate of req_8'
    buttons()
      .find((b) => b.textContent === 'Discard dl_1')!
      .click()
    await new Promise((res) => setTimeout(res, 500))
    return { first, refused, after: { stats: stats(), empty: view.querySelector('.empty')?.textContent } }
  })
  expect(r.first.stats).toEqual({ 'Outbox backlog': '1,234', 'Writer lag': '56 ms', 'Dead letters': '1' })
  expect(r.first.card).toContain('req_9')
  expect(r.first.card).toContain('invalid byte sequence')
  expect(r.refused).toBe('Postgres refused it again.')
  expect(r.after).toEqual({
    stats: { 'Outbox backlog': '1,234', 'Writer lag': '56 ms', 'Dead letters': '0' },
    empty: 'No dead letters: every record reached the ledger.',
  })
  expect(cp.calls.find((c) => c.path.endsWith('/discard'))?.body).toEqual({ note: 'duplicate of req_8' })
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
