// Forgot, reset and verify in Chromium: the token is read from the fragment and posted; without
// one the page says the link is broken; the forgot form says where the link went (mail or the
// operator) without telling whether the account exists.
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type Recovery = typeof import('../../../../src/console-ui/client/pages/recovery.ts')
type Router = typeof import('../../../../src/console-ui/client/router.ts')
const cp = clientPage({ recovery: 'pages/recovery.ts', router: 'router.ts' })

test('linkSent: by mail, or from the operator', async () => {
  await cp.open()
  const r = await cp.page.evaluate(() => {
    const { linkSent } = window.__client.recovery as Recovery
    return [linkSent('email', 'x', 'We sent it.').textContent, linkSent('operator', 'choose a new password', 'ignored').textContent]
  })
  expect(r).toEqual([
    'We sent it. Check your inbox (and spam folder).',
    "This server sends no email. Ask its operator for your link to choose a new password: they can see it in the server's log.",
  ])
}, 60_000)

test('forgot: posts the email and answers the same whether or not it has an account', async () => {
  cp.stub({ 'POST /api/auth/password/forgot': { body: { delivery: 'email' } } })
  await cp.open('/console/forgot')
  const status = await cp.page.evaluate(async () => {
    const { forgotPage } = window.__client.recovery as Recovery
    const view = document.getElementById('main')!
    forgotPage(view)
    ;(view.querySelector('input[name=email]') as HTMLInputElement).value = ' ann@example.com '
    view.querySelector('form')!.requestSubmit()
    await new Promise((res) => setTimeout(res, 300))
    return view.querySelector('[role=status]')?.textContent
  })
  expect(status).toBe('If ann@example.com has an account, we sent it a link to choose a new password. Check your inbox (and spam folder).')
  // (an email input drops the spaces itself)
  expect(cp.calls.at(-1)).toMatchObject({ path: '/api/auth/password/forgot', body: { email: 'ann@example.com' } })
}, 60_000)

test('reset: the token from the fragment and the new password are posted; success links to sign in', async () => {
  cp.stub({ 'POST /api/auth/password/reset': { body: { ok: true } } })
  await cp.open('/console/reset#token=tok_abc')
  const r = await cp.page.evaluate(async () => {
    const { resetPage } = window.__client.recovery as Recovery
    const view = document.getElementById('main')!
    resetPage(view)
    ;(view.querySelector('input[name=password]') as HTMLInputElement).value = 'a new long password'
    view.querySelector('form')!.requestSubmit()
    await new Promise((res) => setTimeout(res, 300))
    return { status: view.querySelector('[role=status]')?.textContent, link: view.querySelector('[role=status] a')?.getAttribute('href') }
  })
  expect(r).toEqual({ status: 'Your password is changed. Sign in', link: '/console/signin' })
  expect(cp.calls.at(-1)).toMatchObject({ path: '/api/auth/password/reset', body: { token: 'tok_abc', password: 'a new long password' } })
}, 60_000)

test('reset and verify without a token: the link is broken, nothing is posted', async () => {
  await cp.open('/console/reset')
  const before = cp.calls.length
  const r = await cp.page.evaluate(async () => {
    const { resetPage, verifyPage } = window.__client.recovery as Recovery
    const a = document.createElement('div')
    resetPage(a)
    const b = document.createElement('div')
    await verifyPage(b)
    return [a.querySelectorAll('form').length, a.textContent, b.textContent]
  })
  expect(r[0]).toBe(0)
  expect(r[1]).toContain('This link is incomplete or no longer works.')
  expect(r[2]).toContain('This link is incomplete or no longer works.')
  expect(cp.calls.length).toBe(before)
}, 60_000)

test('verify: a good token signs in and goes to the keys; a spent one says why', async () => {
  cp.stub({
    'POST /api/auth/verify': (body) =>
      (body as { token: string }).token === 'good'
        ? { body: { id: 'usr_1', email: 'ann@example.com' } }
        : { status: 400, body: { error: { code: 'BAD_REQUEST', message: 'This link has expired.' } } },
  })
  await cp.open('/console/verify#token=good')
  const ok = await cp.page.evaluate(async () => {
    const { verifyPage } = window.__client.recovery as Recovery
    const { onNavigate } = window.__client.router as Router
    const went: string[] = []
    onNavigate(() => went.push(location.pathname + location.search))
    await verifyPage(document.getElementById('main')!)
    return { went, who: document.getElementById('who-email')!.textContent }
  })
  expect(ok).toEqual({ went: ['/console/keys?welcome=1'], who: 'ann@example.com' })
  await cp.open('/console/verify#token=spent')
  const bad = await cp.page.evaluate(async () => {
    const { verifyPage } = window.__client.recovery as Recovery
    const view = document.getElementById('main')!
    await verifyPage(view)
    return view.querySelector('[role=alert]')?.textContent
  })
  expect(bad).toBe('This link has expired.')
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
