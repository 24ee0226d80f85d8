// Who is signed in, in Chromium: /api/auth/me asked once and remembered; the page marks signed
// out / admin and shows the email; setUser changes it without asking again.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../client-page.ts'

type Session = typeof import('../../../src/console-ui/client/session.ts')
const cp = clientPage({ session: 'session.ts' }, { 'GET /api/auth/me': { body: { id: 'usr_1', email: 'ann@example.com', role: 'admin' } } })
beforeAll(() => cp.open(), 60_000)

test('asks once, then remembers; the header shows the admin', async () => {
  const r = await cp.page.evaluate(async () => {
    const { currentUser } = window.__client.session as Session
    const a = await currentUser()
    const b = await currentUser()
    return {
      a,
      same: a === b,
      cls: document.body.className,
      email: document.getElementById('who-email')!.textContent,
    }
  })
  expect(r).toEqual({ a: { id: 'usr_1', email: 'ann@example.com', role: 'admin' }, same: true, cls: 'is-admin', email: 'ann@example.com' })
  expect(cp.calls.filter((c) => c.path === '/api/auth/me')).toHaveLength(1)
})

test('setUser(null) signs out in the page; a plain user is not marked admin', async () => {
  const r = await cp.page.evaluate(async () => {
    const { setUser, currentUser } = window.__client.session as Session
    setUser(null)
    const out = { cls: document.body.className, email: document.getElementById('who-email')!.textContent, me: await currentUser() }
    setUser({ id: 'usr_2', email: 'bob@example.com' })
    return { out, in: { cls: document.body.className, email: document.getElementById('who-email')!.textContent } }
  })
  expect(r).toEqual({ out: { cls: 'signed-out', email: '', me: null }, in: { cls: '', email: 'bob@example.com' } })
  expect(cp.calls.filter((c) => c.path === '/api/auth/me')).toHaveLength(1)
})

test('a refused /api/auth/me reads as nobody signed in', async () => {
  cp.stub({ 'GET /api/auth/me': { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Sign in.' } } } })
  await cp.open()
  const r = await cp.page.evaluate(async () => {
    const { currentUser } = window.__client.session as Session
    return { me: await currentUser(), cls: document.body.className }
  })
  expect(r).toEqual({ me: null, cls: 'signed-out' })
})

test('no page errors', () => expect(cp.errors).toEqual([]))
