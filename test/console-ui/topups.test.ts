// Top-ups in a real browser (docs/console-ui.md "Tests"), both providers, on both backends: a
// cancelled sandbox payment comes back failed and credits nothing (and a long ledger pages with
// "Load more"); Stripe Checkout — the local fake of Stripe's API, the hosted page stubbed in the
// browser — returns to the console's return page, which waits for the verified webhook and shows
// the credit. Money is checked in Postgres.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Stripe from 'stripe'
import { applyMovement } from '../../src/billing/accounts.ts'
import { usd } from '../../src/console-ui/client/format.ts'
import { ALL_BACKENDS } from '../helpers/gateway.ts'
import { checkoutEvent } from '../console/helpers.ts'
import type { TestBrowser } from './browser.ts'
import { apiGet, nav, signUpInPage, startConsoleUi, text, WEBHOOK_SECRET, type ConsoleUi } from './suite.ts'

for (const backends of ALL_BACKENDS) {
  describe(`console UI top-ups on ${backends.db}+${backends.store}`, () => {
    let ui: ConsoleUi
    let b: TestBrowser
    let base: string
    beforeAll(async () => {
      ui = await startConsoleUi(backends)
      ;({ b, base } = ui)
    }, 120_000)
    afterAll(() => ui?.stop(), 60_000)

    test('a cancelled sandbox payment comes back failed and credits nothing; long lists load more', async () => {
      const { page } = b
      const me = await signUpInPage(page)
      // 55 credits of 1 cent: more than one page (50) of transactions.
      const { db, store } = ui.gw.runtime.deps
      for (let n = 0; n < 55; n++)
        await applyMovement(db, store, {
          userId: me.id,
          amountMicros: 10_000n,
          kind: 'adjustment',
          method: 'test',
          reference: `ui-more:${me.id}:${n}`,
        })

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
      await ui.gw.settled()
      expect(await ui.gw.books(me.id)).toEqual({ balance: 550_000n, ledgerSum: 550_000n })
      expect(b.errors).toEqual([])
    }, 240_000)

    test('Stripe Checkout: off to Stripe, back to the return page, credited by the verified webhook', async () => {
      const { page } = b
      await signUpInPage(page)
      // Stripe's hosted page, as far as this test needs it.
      await page.route('https://checkout.stripe.test/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>Stripe</title><p>Stripe Checkout</p>' }),
      )
      await nav(page, 'Top up', 'Top up')
      const before: number = (await apiGet(page, '/api/wallet/account')).balance
      await page.getByLabel('Card (Stripe Checkout)').check()
      await page.getByLabel('Amount (USD)').fill('20')
      await page.getByRole('button', { name: 'Continue to payment' }).click()
      await page.waitForURL(/^https:\/\/checkout\.stripe\.test\//)
      const session = ui.stripe.sessions.at(-1)!
      expect(session).toMatchObject({ amount: 2000, currency: 'usd' })
      expect(session.successUrl).toBe(`${base}/console/topup/return?topup=${session.transactionId}&status=success`)
      expect(session.cancelUrl).toBe(`${base}/console/topup/return?topup=${session.transactionId}&status=cancelled`)
      // Back before the webhook: the page waits, then shows the credit once it lands.
      await page.goto(session.successUrl!)
      await page.getByText('Waiting for the payment provider to confirm the payment…').waitFor()
      const payload = checkoutEvent('checkout.session.completed', session)
      const signature = await new Stripe('sk_test_unused').webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET })
      const hook = await fetch(`${base}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
        body: payload,
      })
      expect(hook.status).toBe(200)
      await page.getByText('Payment received. Your balance has been credited.').waitFor()
      expect(await text(page, '#balance')).toBe(usd((Math.round(before * 1e6) + 20_000_000) / 1e6))
      await page.unroute('https://checkout.stripe.test/**')
      expect(b.errors).toEqual([])
    }, 240_000)
  })
}
