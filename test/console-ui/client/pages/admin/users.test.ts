// The operator's user list in Chromium: the email filter from the URL reaches the API, each user
// links to its page with role, state and balance; a search navigates with the trimmed email.
import { expect, test } from 'bun:test'
import { clientPage } from '../../../client-page.ts'

type Users = typeof import('../../../../../src/console-ui/client/pages/admin/users.ts')
type Router = typeof import('../../../../../src/console-ui/client/router.ts')
const admin = { body: { id: 'usr_op', email: 'op@example.com', role: 'admin' } }
const cp = clientPage(
  { users: 'pages/admin/users.ts', router: 'router.ts' },
  {
    'GET /api/auth/me': admin,
    'GET /api/admin/users': (_, q) =>
      q.get('email') === 'nobody'
        ? { body: { items: [], nextCursor: null } }
        : {
            body: {
              items: [
                { id: 'usr_1', email: 'ann@example.com', role: 'user', createdAt: '2026-01-02T03:04:00Z', disabled: false, balance: 12.5 },
                { id: 'usr 2', email: 'bob@example.com', role: 'admin', createdAt: '2026-01-03T03:04:00Z', disabled: true, balance: 0 },
              ],
              nextCursor: null,
            },
          },
  },
)

test('rows link to each user; the filter reaches the API; a search navigates', async () => {
  await cp.open('/console/admin/users?email=example')
  const r = await cp.page.evaluate(async () => {
    const { adminUsersPage } = window.__client.users as Users
    const { onNavigate } = window.__client.router as Router
    const went: string[] = []
    onNavigate(() => went.push(location.pathname + location.search))
    const view = document.getElementById('main')!
    await adminUsersPage(view, {}, new URLSearchParams(location.search))
    const rows = [...view.querySelectorAll<HTMLTableRowElement>('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))
    const links = [...view.querySelectorAll('tbody a')].map((a) => a.getAttribute('href'))
    const input = view.querySelector('input[name=email]') as HTMLInputElement
    const start = input.value
    input.value = '  ann '
    view.querySelector('form')!.requestSubmit()
    return { rows, links, start, went }
  })
  expect(r.rows).toEqual([
    ['ann@example.com', 'user', 'active', '$12.50', '2026-01-02 03:04 UTC'],
    ['bob@example.com', 'admin', 'disabled', '$0.00', '2026-01-03 03:04 UTC'],
  ])
  expect(r.links).toEqual(['/console/admin/users/usr_1', '/console/admin/users/usr%202'])
  expect(r.start).toBe('example')
  expect(r.went).toEqual(['/console/admin/users?email=ann'])
  expect(cp.calls.find((c) => c.path === '/api/admin/users')?.query).toBe('?email=example&limit=50')
}, 60_000)

test('an empty search says so', async () => {
  await cp.open('/console/admin/users?email=nobody')
  const empty = await cp.page.evaluate(async () => {
    const { adminUsersPage } = window.__client.users as Users
    const view = document.getElementById('main')!
    await adminUsersPage(view, {}, new URLSearchParams(location.search))
    return view.querySelector('.empty')?.textContent
  })
  expect(empty).toBe('No user has an email containing that.')
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
