// The console in a real browser (docs/console-ui.md "Tests"), end to end against a started gateway
// with a fake upstream and the sandbox payment provider: sign up → top up → create a key → call
// /v1/chat/completions with it → the call is in the logs and the balance went down by its cost →
// top up again → the balance went up; revoke → the key is refused; sign out, auth errors, keyboard
// sign-in. Money is checked in Postgres too. Screenshots of every page at desktop and phone widths.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { usd } from '../../src/console-ui/client/format.ts'
import { ALL_BACKENDS, bearer, chatBody } from '../helpers/gateway.ts'
import { screenshots, unlabelledControls, type TestBrowser } from './browser.ts'
import { apiGet, fieldError, nav, PASSWORD, startConsoleUi, text, type ConsoleUi } from './suite.ts'

for (const [i, backends] of ALL_BACKENDS.entries()) {
  describe(`console UI on ${backends.db}+${backends.store}`, () => {
    let ui: ConsoleUi
    let b: TestBrowser
    let base: string
    // Screenshots once (the pages look the same on every backend).
    const shoot = i === 0 ? screenshots : async () => {}
    beforeAll(async () => {
      ui = await startConsoleUi(backends)
      ;({ b, base } = ui)
    }, 120_000)
    afterAll(() => ui?.stop(), 60_000)

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
      await ui.gw.settled()
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
      await page
        .getByRole('region', { name: 'Recent calls' })
        .getByRole('row', { name: new RegExp(requestId) })
        .waitFor()
      // At 1280 px the recent calls fit their card: the request id is whole, nothing scrolls.
      const fit = await page.evaluate(() => {
        const wrap = document.querySelector<HTMLElement>('[aria-labelledby="recent"] .table-wrap')!
        return { scroll: wrap.scrollWidth, width: wrap.clientWidth }
      })
      expect(fit.scroll).toBeLessThanOrEqual(fit.width)
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
      await ui.gw.settled()
      expect(await ui.gw.books(me.id)).toEqual({ balance: BigInt(15_000_000 - costMicros), ledgerSum: BigInt(15_000_000 - costMicros) })
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
  })
}
