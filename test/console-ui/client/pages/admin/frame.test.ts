// The operator pages' frame in Chromium: an admin gets the heading and the operator navigation
// with the current section marked; anyone else a refusal; and the two formatters.
import { expect, test } from 'bun:test'
import { clientPage } from '../../../client-page.ts'

type Frame = typeof import('../../../../../src/console-ui/client/pages/admin/frame.ts')
const admin = { 'GET /api/auth/me': { body: { id: 'usr_a', email: 'op@example.com', role: 'admin' } } }
const cp = clientPage({ frame: 'pages/admin/frame.ts' }, admin)

test('an admin on a user’s page: heading, navigation, Users marked current', async () => {
  await cp.open('/console/admin/users/usr_9')
  const r = await cp.page.evaluate(async () => {
    const { operatorPage } = window.__client.frame as Frame
    const view = document.getElementById('main')!
    const ok = await operatorPage(view, 'User')
    return {
      ok,
      h1: view.querySelector('h1')!.textContent,
      links: [...view.querySelectorAll('nav a')].map((a) => [a.textContent, a.getAttribute('aria-current')]),
    }
  })
  expect(r.ok).toBe(true)
  expect(r.h1).toBe('User')
  expect(r.links).toEqual([
    ['Overview', null],
    ['Users', 'page'],
    ['Gateways', null],
    ['Ledger', null],
    ['Audit log', null],
  ])
}, 60_000)

test('a signed-in non-admin is refused in words', async () => {
  cp.stub({ 'GET /api/auth/me': { body: { id: 'usr_u', email: 'u@example.com', role: 'user' } } })
  await cp.open('/console/admin')
  const r = await cp.page.evaluate(async () => {
    const { operatorPage } = window.__client.frame as Frame
    const view = document.getElementById('main')!
    return {
      ok: await operatorPage(view, 'Overview'),
      h1: view.querySelector('h1')!.textContent,
      alert: view.querySelector('[role=alert]')?.textContent,
      nav: view.querySelectorAll('nav').length,
    }
  })
  expect(r).toEqual({
    ok: false,
    h1: 'Operators only',
    alert: 'This page is for the operators of this gateway. Your account is not an admin.',
    nav: 0,
  })
}, 60_000)

test('known and percent', async () => {
  const r = await cp.page.evaluate(() => {
    const { known, percent } = window.__client.frame as Frame
    return [known(null, String), known(0, (n) => `$${n}`), percent(null), percent(0.1234), percent(1)]
  })
  expect(r).toEqual(['unknown', '$0', '—', '12.3 %', '100.0 %'])
})

test('no page errors', () => expect(cp.errors).toEqual([]))
