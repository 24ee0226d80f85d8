// Sign in and sign up in Chromium: the form posts email and password to the right endpoint, a
// signed-in answer sets the user and goes on (`next` only within the console), a taken email is
// said under the email field, and a server that wants the email confirmed says where the link went.
import { expect, test } from 'bun:test'
import { clientPage } from '../../client-page.ts'

type Auth = typeof import('../../../../src/console-ui/client/pages/auth.ts')
type Router = typeof import('../../../../src/console-ui/client/router.ts')
const cp = clientPage({ auth: 'pages/auth.ts', router: 'router.ts' })

async function fill(mode: 'signInPage' | 'signUpPage', email: string, password: string) {
  return cp.page.evaluate(
    async ([mode, email, password]) => {
      const auth = window.__client.auth as Auth
      const { onNavigate } = window.__client.router as Router
      const went: string[] = []
      onNavigate(() => went.push(location.pathname + location.search))
      const view = document.getElementById('main')!
      auth[mode as 'signInPage'](view, {}, new URLSearchParams(location.search))
      ;(view.querySelector('input[name=email]') as HTMLInputElement).value = email!
      ;(view.querySelector('input[name=password]') as HTMLInputElement).value = password!
      view.querySelector('form')!.requestSubmit()
      // Until the answer shows: a navigation, an error, or a status (at most 10 s on a busy machine).
      const shown = () =>
        went.length > 0 ||
        Boolean(view.querySelector('.form-error')?.textContent) ||
        Boolean(view.querySelector('.field-error')?.textContent) ||
        Boolean(view.querySelector('[role=status]')?.textContent)
      for (let waited = 0; !shown() && waited < 10_000; waited += 20) await new Promise((res) => setTimeout(res, 20))
      return {
        went,
        h1: view.querySelector('h1')!.textContent,
        emailError: view.querySelector('input[name=email]')?.closest('.field')?.querySelector('.field-error')?.textContent ?? null,
        alert: view.querySelector('.form-error')?.textContent ?? null,
        status: view.querySelector('[role=status]')?.textContent ?? null,
        who: document.getElementById('who-email')!.textContent,
      }
    },
    [mode, email, password],
  )
}

test('sign in posts the pair and goes to next within the console', async () => {
  cp.stub({ 'POST /api/auth/login': { body: { id: 'usr_1', email: 'ann@example.com' } } })
  await cp.open('/console/signin?next=/console/logs')
  const r = await fill('signInPage', 'ann@example.com', 'correct horse')
  expect(r.h1).toBe('Sign in to Tollgate')
  expect(r.went).toEqual(['/console/logs'])
  expect(r.who).toBe('ann@example.com')
  expect(cp.calls.at(-1)).toMatchObject({
    method: 'POST',
    path: '/api/auth/login',
    body: { email: 'ann@example.com', password: 'correct horse' },
  })
}, 60_000)

test('a next outside the console is ignored', async () => {
  await cp.open('/console/signin?next=https://evil.example/')
  expect((await fill('signInPage', 'ann@example.com', 'correct horse')).went).toEqual(['/console'])
}, 60_000)

test('a wrong pair is said in the form, nothing navigates', async () => {
  cp.stub({ 'POST /api/auth/login': { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Wrong email or password.' } } } })
  await cp.open('/console/signin')
  const r = await fill('signInPage', 'ann@example.com', 'nope')
  expect(r).toMatchObject({ went: [], alert: 'Wrong email or password.', emailError: '' })
}, 60_000)

test('sign up: a taken email is said under the email field', async () => {
  cp.stub({
    'POST /api/auth/register': { status: 409, body: { error: { code: 'CONFLICT', message: 'An account with this email exists.' } } },
  })
  await cp.open('/console/signup')
  const r = await fill('signUpPage', 'ann@example.com', 'long enough pw')
  expect(r).toMatchObject({ h1: 'Create your account', went: [], emailError: 'An account with this email exists.', alert: '' })
}, 60_000)

test('sign up: a new account goes to its keys with the welcome', async () => {
  cp.stub({ 'POST /api/auth/register': { status: 201, body: { id: 'usr_2', email: 'bob@example.com' } } })
  await cp.open('/console/signup')
  expect((await fill('signUpPage', 'bob@example.com', 'long enough pw')).went).toEqual(['/console/keys?welcome=1'])
}, 60_000)

test('sign up on a server that confirms emails: where the link went, no session', async () => {
  cp.stub({ 'POST /api/auth/register': { status: 202, body: { id: 'usr_3', email: 'cy@example.com', verification: 'email' } } })
  await cp.open('/console/signup')
  const r = await fill('signUpPage', 'cy@example.com', 'long enough pw')
  expect(r.went).toEqual([])
  expect(r.status).toBe('We sent a link to cy@example.com to confirm your email. Check your inbox (and spam folder).')
  expect(r.who).toBe('')
}, 60_000)

test('sign up: a short password typed in is refused by the form before anything is sent', async () => {
  await cp.open('/console/signup')
  const before = cp.calls.length
  await cp.page.evaluate(() => {
    const { signUpPage } = window.__client.auth as Auth
    signUpPage(document.getElementById('main')!, {}, new URLSearchParams())
  })
  // typed, as a person does: the browser checks minlength only on what was typed
  await cp.page.fill('input[name=email]', 'dee@example.com')
  await cp.page.fill('input[name=password]', 'short')
  await cp.page.evaluate(() => document.querySelector('form')!.requestSubmit())
  await Bun.sleep(200)
  expect(cp.calls.length).toBe(before)
  expect(await cp.page.getAttribute('input[name=password]', 'aria-invalid')).toBe('true')
}, 60_000)

test('no page errors', () => expect(cp.errors).toEqual([]))
