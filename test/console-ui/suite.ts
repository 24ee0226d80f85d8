// What the console UI suites share: a started gateway (fake upstream, the sandbox provider and
// a local fake of Stripe's API), a headless Chromium on it, and page helpers that find things by
// role and label as a person (or a screen reader) would.
import type { Page } from 'playwright-core'
import { simpleCatalog, startTestGateway, type Backends, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { startFakeStripe, type FakeStripe } from '../console/helpers.ts'
import { launch, type TestBrowser } from './browser.ts'

export const PASSWORD = 'correct horse battery'
export const WEBHOOK_SECRET = 'whsec_console_ui'

export interface ConsoleUi {
  gw: TestGateway
  up: FakeUpstream
  stripe: FakeStripe
  b: TestBrowser
  base: string
  stop(): Promise<void>
}

export async function startConsoleUi(backends: Backends): Promise<ConsoleUi> {
  const up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
  const stripe = startFakeStripe()
  const gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), {
    SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-ui',
    STRIPE_SECRET_KEY: 'sk_test_console_ui',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    TOPUP_MIN_USD: '5',
    TOPUP_MAX_USD: '500',
  })
  const base = gw.listen()
  const b = await launch(base)
  return {
    gw,
    up,
    stripe,
    b,
    base,
    async stop() {
      await b.close()
      await gw.stop()
      up.stop()
      stripe.stop()
    },
  }
}

/** Follows a link of the header navigation and waits for the page's heading. */
export async function nav(page: Page, name: string, heading: string | RegExp) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
}

/** The error slot under the control labelled `label`. */
export const fieldError = (page: Page, label: string) =>
  page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error')
export const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim()
/** A console API GET from inside the page (its session cookie). */
export const apiGet = (page: Page, path: string) => page.evaluate((p) => fetch(p).then((r) => r.json()), path)

/** Signs whoever is signed in out, then a new account up through the page; returns its id and email. */
export async function signUpInPage(page: Page): Promise<{ id: string; email: string }> {
  await page.goto('/console/models')
  await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST' }))
  await page.goto('/console/signup')
  await page.getByLabel('Email').fill(`ui-${crypto.randomUUID()}@test.local`)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL(/\/console\/keys/)
  return apiGet(page, '/api/auth/me')
}
