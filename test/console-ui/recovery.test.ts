// The console's password reset and email confirmation in a real browser (docs/console.md
// "Password reset", "Email verification"), with the server requiring confirmed emails and its
// mail going to a local SMTP sink: sign up → "we sent a link" → the emailed link signs in →
// sign out → "Forgot password?" → the emailed link → a new password → sign in with it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts'
import { launch, screenshots, unlabelledControls, type TestBrowser } from './browser.ts'
import { apiGet, PASSWORD } from './suite.ts'

const PUBLIC_URL = 'http://console.test'

describe('console UI: email confirmation and password reset', () => {
  let gw: TestGateway
  let sink: SmtpSink
  let b: TestBrowser
  beforeAll(async () => {
    sink = await startSmtpSink()
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      PUBLIC_URL,
      SMTP_URL: sink.url,
      SMTP_FROM: 'no-reply@console.test',
      REQUIRE_EMAIL_VERIFICATION: 'true',
    })
    b = await launch(gw.listen())
  }, 120_000)
  afterAll(async () => {
    await b?.close()
    await gw?.stop()
    await sink?.stop()
  }, 60_000)

  /** The link of the `n`-th mail to `email`, on this test's listener instead of PUBLIC_URL. */
  const linkIn = async (email: string, n: number) => (await sink.nth(email, n)).text.match(/http:\/\/console\.test(\/console\/\S+)/)![1]!

  test('sign up, confirm by the emailed link, forget the password, reset it by the emailed link, sign in', async () => {
    const { page } = b
    const email = `ui-${crypto.randomUUID()}@test.local`
    await page.goto('/console/signup')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.getByRole('status').getByText(`We sent a link to ${email} to confirm your email.`).waitFor()

    await page.goto(await linkIn(email, 1))
    await page.waitForURL(/\/console\/keys\?welcome=1$/)
    expect((await apiGet(page, '/api/auth/me')).email).toBe(email)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(/\/console\/signin$/)
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor()
    expect(await unlabelledControls(page)).toEqual([])
    await screenshots(page, '20-forgot')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByRole('status').getByText(`If ${email} has an account, we sent it a link to choose a new password.`).waitFor()

    const reset = await linkIn(email, 2)
    expect(reset).toMatch(/^\/console\/reset#token=/)
    await page.goto(reset)
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor()
    await screenshots(page, '21-reset')
    await page.getByLabel('New password', { exact: true }).fill('a new console password')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await page.getByRole('status').getByText('Your password is changed.').waitFor()

    // The same link a second time: refused, with a way to ask for a new one.
    await page.goto('/console/models')
    await page.goto(reset)
    await page.getByLabel('New password', { exact: true }).fill('yet another password')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await page.getByRole('alert').getByText('This link is invalid, used or expired; ask for a new one.').waitFor()

    await page.goto('/console/signin')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('a new console password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/console$/)
    expect(b.errors).toEqual([])
  }, 120_000)
})
