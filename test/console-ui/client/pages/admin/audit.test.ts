// The audit log in Chromium: who (email, else the actor), what, on what, and the before/after as
// JSON; nothing for a non-admin.
import { expect, test } from 'bun:test'
import { clientPage } from '../../../client-page.ts'

type Audit = typeof import('../../../../../src/console-ui/client/pages/admin/audit.ts')
const rows = {
  body: {
    items: [
      {
        id: 'aud_1',
        at: '2026-02-03T04:05:00Z',
        actor: 'usr_op',
        actorEmail: 'op@example.com',
        action: 'user.credit',
        target: 'usr_1',
        before: { balance: '0' },
        after: { balance: '5' },
        note: 'goodwill',
      },
      {
        id: 'aud_2',
        at: '2026-02-03T05:05:00Z',
        actor: 'token',
        actorEmail: null,
        action: 'catalog.reload',
        target: null,
        before: null,
        after: null,
        note: null,
      },
    ],
    nextCursor: null,
  },
}
const cp = clientPage({ audit: 'pages/admin/audit.ts' })

test('an admin sees every change as a row', async () => {
  cp.stub({ 'GET /api/auth/me': { body: { id: 'usr_op', email: 'op@example.com', role: 'admin' } }, 'GET /api/admin/audit': rows })
  await cp.open('/console/admin/audit')
  const r = await cp.page.evaluate(async () => {
    const view = document.getElementById('main')!
    await (window.__client.audit as Audit).adminAuditPage(view)
    return [...view.querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))
  })
  expect(r).toEqual([
    ['2026-02-03 04:05 UTC', 'op@example.com', 'user.credit', 'usr_1', '{"balance":"0"}', '{"balance":"5"}', 'goodwill'],
    ['2026-02-03 05:05 UTC', 'token', 'catalog.reload', '—', '—', '—', ''],
  ])
  expect(cp.calls.find((c) => c.path === '/api/admin/audit')?.query).toBe('?limit=50')
}, 60_000)

test('a non-admin gets the refusal and the log is not asked for', async () => {
  cp.stub({ 'GET /api/auth/me': { body: { id: 'usr_u', email: 'u@example.com', role: 'user' } }, 'GET /api/admin/audit': rows })
  const before = cp.calls.filter((c) => c.path === '/api/admin/audit').length
  await cp.open('/console/admin/audit')
  const h1 = await cp.page.evaluate(async () => {
    const view = document.getElementById('main')!
    await (window.__client.audit as Audit).adminAuditPage(view)
    return view.querySelector('h1')!.textContent
  })
  expect(h1).toBe('Operators only')
  expect(cp.calls.filter((c) => c.path === '/api/admin/audit').length).toBe(before)
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
