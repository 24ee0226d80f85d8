// The console in a real browser (issue 13), end to end against a started gateway with a fake
// upstream and the sandbox payment provider: sign up → top up → create a key → call
// /v1/chat/completions with it → the call is in the logs and the balance went down by its cost →
// top up again → the balance went up; revoke → the key is refused; sign out, auth errors,
// keyboard sign-in.
// Money is checked in Postgres too. Screenshots of every page at desktop and phone widths.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { applyMovement } from '../../src/billing/accounts.ts'
import { usd } from '../../src/console-ui/client/format.ts'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import Stripe from 'stripe'
import { checkoutEvent, startFakeStripe, type FakeStripe } from '../console/helpers.ts'
import { launch, screenshots, unlabelledControls, type TestBrowser } from './browser.ts'

const PASSWORD = 'correct horse battery'
const WEBHOOK_SECRET = 'whsec_console_ui'

for (const [i, backends] of ALL_BACKENDS.entries()) {
  describe(`console UI on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    let stripe: FakeStripe
    let b: TestBrowser
    let base: string
    // Screenshots once (the pages look the same on every backend).
    const shoot = i === 0 ? screenshots : async () => {}
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      stripe = startFakeStripe()
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), {
        SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-ui',
        STRIPE_SECRET_KEY: 'sk_test_console_ui',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
        TOPUP_MIN_USD: '5',
        TOPUP_MAX_USD: '500',
      })
      base = gw.listen()
      b = await launch(base)
    }, 120_000)
    afterAll(async () => {
      await b?.close()
      await gw.stop()
      up.stop()
      stripe.stop()
    })

    const nav = async (page: Page, name: string, heading: string | RegExp) => {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click()
      await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    }
    const fieldError = (page: Page, label: string) => page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error')
    const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim()
    const apiGet = (page: Page, path: string) => page.evaluate((p) => fetch(p).then((r) => r.json()), path)
    const call = (key: string) => fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: bearer(key), body: chatBody() })

    async function sandboxTopup(page: Page, amount: number, expectBalance: string) {
      await nav(page, 'Top up', 'Top up')
      if (amount === 10) {
        // Outside the policy: said under the amount, and nothing starts.
        await page.getByLabel('Amount (USD)').fill('1000')
        await page.getByRole('button', { name: 'Continue to payment' }).click()
        await fieldError(page, 'Amount (USD)').getByText('500').waitFor()
        expect(page.url()).toEndWith('/console/topup')
      }
      await page.getByLabel('Amount (USD)').fill(String(amount))
      await page.getByLabel(/^Sandbox/).check()
      if (amount === 10) await shoot(page, '03-topup')
      await page.getByRole('button', { name: 'Continue to payment' }).click()
      await page.waitForURL(/\/api\/payments\/sandbox\//)
      await page.getByRole('button', { name: `Pay ${usd(amount)} (sandbox)` }).click()
      await page.getByText('completed').waitFor()
      await page.getByRole('link', { name: 'Back to the console' }).click()
      await page.waitForURL(/\/console\/topup\/return\?topup=/)
      await page.getByText('Payment received. Your balance has been credited.').waitFor()
      expect(await text(page, '#balance')).toBe(expectBalance)
    }

    test('sign up, top up, key, call, logs, balance, top up, revoke, sign out, keyboard sign-in', async () => {
      const { page } = b
      await page.goto('/')
      await page.waitForURL(/\/console\/signin\?next=%2Fconsole$/)
      await page.getByRole('heading', { name: 'Sign in to Tollgate' }).waitFor()
      await shoot(page, '01-signin')

      // Sign up; a too-short password is refused next to the password field.
      await page.getByRole('link', { name: 'Create an account' }).click()
      await page.getByRole('heading', { name: 'Create your account' }).waitFor()
      const email = `ui-${crypto.randomUUID()}@test.local`
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill('short')
      await page.getByRole('button', { name: 'Create account' }).click()
      await fieldError(page, 'Password').waitFor()
      expect(await fieldError(page, 'Password').textContent()).toContain('8')
      expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true')
      await shoot(page, '02-signup-error')
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Create account' }).click()
      await page.waitForURL(/\/console\/keys\?welcome=1$/)
      const me = await apiGet(page, '/api/auth/me')
      expect(me.email).toBe(email)

      // Top up with the sandbox: $0 → $10.
      await sandboxTopup(page, 10, '$10.00')
      await shoot(page, '03-topup-return')
      expect(await unlabelledControls(page)).toEqual([])

      // A key; the server's rpm bound is shown under the rpm field; then the secret once.
      await nav(page, 'API keys', 'API keys')
      await page.getByLabel('Name').fill('ci')
      await page.getByLabel('Requests per minute').fill('1000000')
      await page.getByRole('button', { name: 'Create key' }).click()
      await fieldError(page, 'Requests per minute').getByText('from 1 to 600').waitFor()
      await page.getByLabel('Requests per minute').fill('')
      await page.getByRole('button', { name: 'Create key' }).click()
      const secretInput = page.getByLabel('Secret key')
      await secretInput.waitFor()
      const secret = await secretInput.inputValue()
      expect(secret).toMatch(/^sk-[A-Za-z0-9]{40}$/)
      await page.getByRole('button', { name: 'Copy', exact: true }).click()
      await page.getByText('Copied.').waitFor()
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
      // The first-run hint: curl and the openai SDK with this key and this server's /v1.
      const snippets = await page.locator('pre').allTextContents()
      expect(snippets).toHaveLength(3)
      for (const s of snippets) expect(s).toContain(secret)
      expect(snippets[0]).toContain(`${base}/v1/chat/completions`)
      expect(snippets[1]).toContain(`base_url="${base}/v1"`)
      expect(snippets.join('')).toContain('acme/chat-1')
      expect(await unlabelledControls(page)).toEqual([])
      await shoot(page, '04-keys-created')

      // The call, then the logs and the overview.
      const res = await call(secret)
      expect(res.status).toBe(200)
      const requestId = res.headers.get('x-request-id')!
      await gw.settled()
      const log = (await apiGet(page, '/api/logs')).items[0]
      expect(log).toMatchObject({ id: requestId, status: 200, model: 'acme/chat-1' })
      expect(log.cost).toBeGreaterThan(0)
      await nav(page, 'Request logs', 'Request logs')
      const row = page.getByRole('row', { name: new RegExp(requestId) })
      await row.waitFor()
      expect(await row.textContent()).toContain(usd(log.cost))
      await page.getByLabel('Status').selectOption('error')
      await page.getByText('No calls match these filters.').waitFor()
      expect(page.url()).toEndWith('/console/logs?status=error')
      await page.getByLabel('Status').selectOption('success')
      await row.waitFor()
      await shoot(page, '05-logs')

      const costMicros = Math.round(log.cost * 1e6)
      await nav(page, 'Overview', 'Overview')
      await page.getByRole('img', { name: /Spend over the last 30 days/ }).waitFor()
      expect(await text(page, '#balance')).toBe(usd((10_000_000 - costMicros) / 1e6))
      expect(await text(page, '#reserved')).toBe('$0.00')
      expect(await page.getByRole('img', { name: /Spend over the last 30 days/ }).getAttribute('aria-label')).toContain(usd(log.cost))
      await page.getByRole('region', { name: 'Recent calls' }).getByRole('row', { name: new RegExp(requestId) }).waitFor()
      // No layout shift while the overview loads and fills in.
      await page.reload()
      await page.getByRole('img', { name: /Spend over the last 30 days/ }).waitFor()
      const cls = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let sum = 0
            new PerformanceObserver((l) => {
              for (const e of l.getEntries() as any[]) if (!e.hadRecentInput) sum += e.value
            }).observe({ type: 'layout-shift', buffered: true })
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(sum)))
          }),
      )
      expect(cls).toBeLessThan(0.01)
      await shoot(page, '06-overview')

      // Top up again: the balance goes up by exactly the amount.
      await sandboxTopup(page, 5, usd((15_000_000 - costMicros) / 1e6))
      await gw.settled()
      expect(await gw.books(me.id)).toEqual({ balance: BigInt(15_000_000 - costMicros), ledgerSum: BigInt(15_000_000 - costMicros) })
      expect((await apiGet(page, '/api/wallet/account')).reserved).toBe(0)

      // Transactions: filter, then one entry's detail.
      await nav(page, 'Transactions', 'Transactions')
      await page.getByLabel('Kind').selectOption('topup')
      await page.waitForURL(/kind=topup/)
      await page.locator('.results[aria-busy="false"]').waitFor()
      expect(await page.locator('tbody tr').count()).toBe(2)
      await shoot(page, '07-transactions')
      await page.getByRole('link', { name: /UTC/ }).first().click()
      await page.getByRole('heading', { level: 1, name: 'Top-up +$5.00' }).waitFor()
      await shoot(page, '08-transaction')

      // Revoke: confirmed in place, then the key is refused on /v1.
      await nav(page, 'API keys', 'API keys')
      await page.getByRole('button', { name: 'Revoke ci' }).click()
      await page.getByRole('button', { name: 'Confirm revoke ci' }).click()
      await page.getByRole('row', { name: /revoked/ }).waitFor()
      expect((await call(secret)).status).toBe(401)
      await shoot(page, '09-keys')

      // Models: search, no match, prices per 1M tokens.
      await nav(page, 'Models', 'Models')
      await page.getByRole('heading', { level: 2, name: 'Chat 1' }).waitFor()
      expect(await page.locator('.model').textContent()).toContain('$0.15')
      await page.getByRole('searchbox', { name: 'Search' }).fill('zzz')
      await page.getByText('No models match.').waitFor()
      await page.getByRole('searchbox', { name: 'Search' }).fill('chat')
      await page.getByRole('heading', { level: 2, name: 'Chat 1' }).waitFor()
      expect(await unlabelledControls(page)).toEqual([])
      await shoot(page, '10-models')

      // Sign out; a console page then asks to sign in; sign in with the keyboard only.
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(/\/console\/signin$/)
      // A taken email is said under the email field; a wrong password next to the button.
      await page.goto('/console/signup')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Create account' }).click()
      await fieldError(page, 'Email').getByText('already exists').waitFor()
      await page.goto('/console/keys')
      await page.waitForURL(/\/console\/signin\?next=%2Fconsole%2Fkeys$/)
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill('wrong password')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('alert').getByText('Invalid email or password.').waitFor()
      await page.getByLabel('Password').fill('')
      await page.getByLabel('Email').fill('')
      await page.getByLabel('Email').focus()
      await page.keyboard.type(email)
      await page.keyboard.press('Tab')
      await page.keyboard.type(PASSWORD)
      await page.keyboard.press('Enter')
      await page.waitForURL(/\/console\/keys$/)
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor()
      expect(b.errors).toEqual([])
    }, 240_000)

    test('a cancelled sandbox payment comes back failed and credits nothing; long lists load more', async () => {
      const { page } = b
      await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST' }))
      await page.goto('/console/signup')
      await page.getByLabel('Email').fill(`ui-${crypto.randomUUID()}@test.local`)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Create account' }).click()
      await page.waitForURL(/\/console\/keys/)
      const me = await apiGet(page, '/api/auth/me')
      // 55 credits of 1 cent: more than one page (50) of transactions.
      const { db, store } = gw.runtime.deps
      for (let n = 0; n < 55; n++) await applyMovement(db, store, { userId: me.id, amountMicros: 10_000n, kind: 'adjustment', method: 'test', reference: `ui-more:${me.id}:${n}` })

      await nav(page, 'Top up', 'Top up')
      await page.getByLabel('Amount (USD)').fill('7')
      await page.getByLabel(/^Sandbox/).check()
      await page.getByRole('button', { name: 'Continue to payment' }).click()
      await page.waitForURL(/\/api\/payments\/sandbox\//)
      await page.getByRole('button', { name: 'Cancel' }).click()
      await page.getByText('failed').waitFor()
      await page.getByRole('link', { name: 'Back to the console' }).click()
      await page.getByText('The payment did not go through; nothing was charged to your balance.').waitFor()
      expect(await text(page, '#balance')).toBe('$0.55')

      await nav(page, 'Transactions', 'Transactions')
      await page.locator('tbody tr').nth(49).waitFor()
      expect(await page.locator('tbody tr').count()).toBe(50)
      await page.getByRole('button', { name: 'Load more' }).click()
      await page.locator('tbody tr').nth(55).waitFor()
      expect(await page.locator('tbody tr').count()).toBe(56)
      expect(await page.getByRole('button', { name: 'Load more' }).isHidden()).toBe(true)
      expect(await page.getByRole('row', { name: /failed/ }).count()).toBe(1)
      await gw.settled()
      expect(await gw.books(me.id)).toEqual({ balance: 550_000n, ledgerSum: 550_000n })
      expect(b.errors).toEqual([])
    }, 240_000)

    test('Stripe Checkout: off to Stripe, back to the return page, credited by the verified webhook', async () => {
      const { page } = b
      // Stripe's hosted page, as far as this test needs it.
      await page.route('https://checkout.stripe.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Stripe</title><p>Stripe Checkout</p>' }))
      await nav(page, 'Top up', 'Top up')
      const before: number = (await apiGet(page, '/api/wallet/account')).balance
      await page.getByLabel('Card (Stripe Checkout)').check()
      await page.getByLabel('Amount (USD)').fill('20')
      await page.getByRole('button', { name: 'Continue to payment' }).click()
      await page.waitForURL(/^https:\/\/checkout\.stripe\.test\//)
      const session = stripe.sessions.at(-1)!
      expect(session).toMatchObject({ amount: 2000, currency: 'usd' })
      expect(session.successUrl).toBe(`${base}/console/topup/return?topup=${session.transactionId}&status=success`)
      expect(session.cancelUrl).toBe(`${base}/console/topup/return?topup=${session.transactionId}&status=cancelled`)
      // Back before the webhook: the page waits, then shows the credit once it lands.
      await page.goto(session.successUrl!)
      await page.getByText('Waiting for the payment provider to confirm the payment…').waitFor()
      const payload = checkoutEvent('checkout.session.completed', session)
      const signature = await new Stripe('sk_test_unused').webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET })
      const hook = await fetch(`${base}/api/webhooks/stripe`, { method: 'POST', headers: { 'stripe-signature': signature, 'content-type': 'application/json' }, body: payload })
      expect(hook.status).toBe(200)
      await page.getByText('Payment received. Your balance has been credited.').waitFor()
      expect(await text(page, '#balance')).toBe(usd((Math.round(before * 1e6) + 20_000_000) / 1e6))
      await page.unroute('https://checkout.stripe.test/**')
      expect(b.errors).toEqual([])
    }, 240_000)
  })
}
