// The operator pages in a real browser (docs/console-ui.md "Operator pages"; docs/operators.md):
// sign in as an admin → the overview shows revenue and usage → find a user → credit $5 → their
// balance moves by exactly $5 and the audit log has it → disable them → their key is refused →
// the gateway view shows a failing route open. A normal user is refused every operator page and
// API. Screenshots at desktop and phone widths.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { usd } from '../../src/console-ui/client/format.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, chatBody, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { failingRouteCatalog } from '../helpers/failover.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { json, signUp } from '../console/helpers.ts'
import { launch, screenshots, unlabelledControls, type TestBrowser } from './browser.ts'
import { apiGet, PASSWORD, signUpInPage, text } from './suite.ts'

const OPERATOR_PAGES = [
  '/console/admin',
  '/console/admin/users',
  '/console/admin/gateways',
  '/console/admin/ledger',
  '/console/admin/audit',
]

const catalog = (bad: FakeUpstream, good: FakeUpstream) =>
  failingRouteCatalog(bad, good, { contextWindow: 128_000, pricing: { input: 0.15, output: 0.6 }, goodCost: { input: 0.1, output: 0.3 } })

for (const [i, backends] of ALL_BACKENDS.entries()) {
  describe(`operator pages on ${backends.db}+${backends.store}`, () => {
    let bad: FakeUpstream
    let good: FakeUpstream
    let gw: TestGateway
    let b: TestBrowser
    let base: string
    const shoot = i === 0 ? screenshots : async () => {}
    beforeAll(async () => {
      bad = startFakeUpstream({ kind: 'status', status: 500, body: { error: { message: 'boom' } } })
      good = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, catalog(bad, good), { SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-ops', TOPUP_MIN_USD: '5' })
      base = gw.listen()
      b = await launch(base)
    }, 120_000)
    afterAll(async () => {
      await b?.close()
      await gw?.stop()
      bad?.stop()
      good?.stop()
    }, 60_000)

    const call = (key: string) => fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: bearer(key), body: chatBody() })

    /** A customer who paid $12 through the sandbox and made two calls (the first route failing both times). */
    async function customer() {
      const u = await signUp(gw)
      const started = await json(u.post('/api/wallet/topup', { amount: 12, provider: 'sandbox' }))
      expect((await u.post(`${new URL(started.checkoutUrl).pathname}/pay`)).status).toBe(200)
      const { key } = await json(u.post('/api/keys', { name: 'prod' }))
      for (let n = 0; n < 2; n++) expect((await call(key)).status).toBe(200)
      await gw.settled()
      return { ...u, key }
    }

    async function signIn(page: Page, email: string) {
      await page.goto('/console/models')
      await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST' }))
      await page.goto('/console/signin')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
    }
    const sub = async (page: Page, name: string, heading: string) => {
      await page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name, exact: true }).click()
      await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    }

    test('admin: overview, find a user, credit $5, audit, disable, key refused, failing route open', async () => {
      const { page } = b
      const c = await customer()
      const admin = await signUp(gw)
      const grant = await fetch(`${base}/api/admin/users/${admin.id}/role`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'admin' }),
      })
      expect(grant.status).toBe(200)
      await signIn(page, admin.email)

      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operator', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Operator overview' }).waitFor()
      expect(await text(page, '#revenue')).toBe('$12.00')
      expect(await text(page, '#usage')).not.toBe('$0.00')
      expect(await text(page, '#calls')).toBe('2')
      await page.getByRole('cell', { name: 'acme/chat-1' }).waitFor()
      await shoot(page, 'admin-01-overview')

      await sub(page, 'Users', 'Users')
      await page.getByLabel('Email contains').fill(c.email)
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('link', { name: c.email }).click()
      await page.getByRole('heading', { level: 2, name: c.email }).waitFor()
      const before = (await gw.books(c.id)).balance
      const shown = await text(page, '#user-balance')
      await page.getByLabel('Amount (USD)').fill('5')
      await page.getByLabel('Note').fill('goodwill')
      await page.getByRole('button', { name: 'Apply adjustment' }).click()
      await page.locator('#user-balance').filter({ hasNotText: shown! }).waitFor()
      const after = (await gw.books(c.id)).balance
      expect(after - before).toBe(5_000_000n)
      expect(await text(page, '#user-balance')).toBe(usd(Number(after) / 1e6))
      expect(await unlabelledControls(page)).toEqual([])
      await shoot(page, 'admin-02-user')
      const audit = await apiGet(page, `/api/admin/audit?target=${c.id}&limit=1`)
      expect(audit.items[0]).toMatchObject({ action: 'user.credit', actor: admin.id, after: { amount: 5 }, note: 'goodwill' })

      await page.getByRole('button', { name: 'Disable user' }).click()
      await page.locator('#user-state').filter({ hasText: 'disabled' }).waitFor()
      expect([401, 403]).toContain((await call(c.key)).status)

      await sub(page, 'Gateways', 'Models and gateways')
      expect(await text(page, '[data-breaker="acme/chat-1@gw-bad"]')).toBe('open')
      expect(await text(page, '[data-breaker="acme/chat-1@gw-good"]')).toBe('closed')
      await shoot(page, 'admin-03-gateways')

      await sub(page, 'Ledger', 'Ledger health')
      expect(await text(page, '#dead-letters')).toBe('0')
      await sub(page, 'Audit log', 'Audit log')
      await page.getByRole('cell', { name: 'user.disable' }).waitFor()
      await page.getByRole('cell', { name: 'user.credit' }).waitFor()
      await shoot(page, 'admin-04-audit')
      expect(b.errors).toEqual([])
    })

    test('a normal user sees no operator link and is refused every operator page and API', async () => {
      const { page } = b
      await signUpInPage(page)
      await page.goto('/console')
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor()
      expect(await page.getByRole('link', { name: 'Operator', exact: true }).isVisible()).toBe(false)
      for (const path of OPERATOR_PAGES) {
        await page.goto(path)
        await page.getByRole('heading', { level: 1, name: 'Operators only' }).waitFor()
      }
      for (const path of ['/api/admin/users', '/api/admin/gateways', '/api/admin/audit', '/api/admin/ledger/health'])
        expect(await page.evaluate((p) => fetch(p).then((r) => r.status), path)).toBe(403)
    })
  })
}
