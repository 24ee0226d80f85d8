// Top-ups: policy and provider errors, Stripe Checkout through the official SDK against a local
// fake, webhooks signed with the SDK's test helper (valid, forged, replayed, duplicated,
// reordered, concurrent), and the sandbox provider's page. The books balance after all of it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Stripe from 'stripe'
import { ALL_BACKENDS, startTestGateway, simpleCatalog, type TestGateway } from '../helpers/gateway.ts'
import { checkoutEvent, signUp, startFakeStripe, type FakeStripe } from './helpers.ts'

const WEBHOOK_SECRET = 'whsec_test_secret_for_tollgate'
const stripe = new Stripe('sk_test_unused')
const sign = (payload: string, timestamp?: number) => stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, timestamp })

for (const backends of ALL_BACKENDS) {
  describe(`top-ups on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let fake: FakeStripe
    beforeAll(async () => {
      fake = startFakeStripe()
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
        STRIPE_SECRET_KEY: 'sk_test_tollgate',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: fake.url,
        SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-for-tests',
        TOPUP_MIN_USD: '5',
        TOPUP_MAX_USD: '500',
      })
    })
    afterAll(async () => {
      await gw.stop()
      fake.stop()
    })

    const topup = (u: { headers: Record<string, string> }, body: unknown) => gw.request('/api/wallet/topup', { method: 'POST', headers: u.headers, body: JSON.stringify(body) })
    const hook = async (payload: string, signature: string | Promise<string>) =>
      gw.request('/api/webhooks/stripe', { method: 'POST', headers: { 'stripe-signature': await signature, 'content-type': 'application/json' }, body: payload })
    const account = async (u: { headers: Record<string, string> }) => (await (await gw.request('/api/wallet/account', { headers: u.headers })).json()) as any
    const txn = async (u: { headers: Record<string, string> }, id: string) => (await (await gw.request(`/api/wallet/transactions/${id}`, { headers: u.headers })).json()) as any

    async function stripeTopup(u: Awaited<ReturnType<typeof signUp>>, amount: number) {
      const res = await topup(u, { amount, provider: 'stripe' })
      expect(res.status).toBe(201)
      const body = (await res.json()) as { transactionId: string; checkoutUrl: string }
      const session = fake.sessions.find((s) => s.transactionId === body.transactionId)!
      return { ...body, session }
    }

    test('amounts outside the policy → 400 BAD_REQUEST; unconfigured provider → 402; nothing recorded', async () => {
      const u = await signUp(gw)
      for (const amount of [4.99, 500.01, 10.001, -5, 0]) {
        const res = await topup(u, { amount, provider: 'stripe' })
        expect(res.status).toBe(400)
        expect(((await res.json()) as any).error.code).toBe('BAD_REQUEST')
      }
      const res = await topup(u, { amount: 10, provider: 'paypal' })
      expect(res.status).toBe(402)
      expect(((await res.json()) as any).error.code).toBe('PAYMENT_REQUIRED')
      const list = (await (await gw.request('/api/wallet/transactions', { headers: u.headers })).json()) as any
      expect(list.items).toEqual([])
    })

    test('Stripe: checkout opened through the SDK; a valid webhook credits once, however often it arrives', async () => {
      const u = await signUp(gw)
      const t = await stripeTopup(u, 25.5)
      expect(t.checkoutUrl).toStartWith('https://checkout.stripe.test/')
      expect(t.session).toMatchObject({ amount: 2550, currency: 'usd' })
      expect((await txn(u, t.transactionId)).status).toBe('pending')
      expect((await account(u)).pendingTopups).toEqual({ count: 1, amount: 25.5 })

      const event = checkoutEvent('checkout.session.completed', t.session)
      const replies = await Promise.all(Array.from({ length: 5 }, () => hook(event, sign(event))))
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
      const again = checkoutEvent('checkout.session.completed', t.session)
      expect((await hook(again, sign(again))).status).toBe(200)
      expect((await txn(u, t.transactionId)).status).toBe('completed')
      expect((await account(u)).balance).toBe(25.5)
      // Reordered: an expiry arriving after the completion changes nothing.
      const late = checkoutEvent('checkout.session.expired', t.session, false)
      await hook(late, sign(late))
      expect((await txn(u, t.transactionId)).status).toBe('completed')
      expect((await account(u)).balance).toBe(25.5)
      await gw.settled()
      const books = await gw.books(u.id)
      expect(books.balance).toBe(25_500_000n)
      expect(books.ledgerSum).toBe(books.balance)
    })

    test('Stripe: forged, replayed and mismatched events credit nothing', async () => {
      const u = await signUp(gw)
      const t = await stripeTopup(u, 10)
      const event = checkoutEvent('checkout.session.completed', t.session)
      const forged = await stripe.webhooks.generateTestHeaderStringAsync({ payload: event, secret: 'whsec_attacker' })
      expect((await hook(event, forged)).status).toBe(400)
      expect((await hook(event, 'garbage')).status).toBe(400)
      const old = await sign(event, Math.floor(Date.now() / 1000) - 3_600)
      const replayed = await hook(event, old)
      expect(replayed.status).toBe(400)
      expect(((await replayed.json()) as any).error.code).toBe('BAD_REQUEST')
      const tampered = event.replace('"amount_total":1000', '"amount_total":100000')
      expect((await hook(tampered, await sign(event))).status).toBe(400)
      expect((await txn(u, t.transactionId)).status).toBe('pending')
      // Correctly signed but for the wrong amount: refused and marked failed.
      const wrong = checkoutEvent('checkout.session.completed', { ...t.session, amount: 99 })
      expect((await hook(wrong, sign(wrong))).status).toBe(200)
      const detail = await txn(u, t.transactionId)
      expect(detail.status).toBe('failed')
      expect((await account(u)).balance).toBe(0)
    })

    test('Stripe: an expired checkout marks the top-up failed; a later completion does not credit', async () => {
      const u = await signUp(gw)
      const t = await stripeTopup(u, 7)
      const expired = checkoutEvent('checkout.session.expired', t.session, false)
      await hook(expired, sign(expired))
      expect((await txn(u, t.transactionId)).status).toBe('failed')
      const done = checkoutEvent('checkout.session.completed', t.session)
      await hook(done, sign(done))
      expect((await account(u)).balance).toBe(0)
    })

    test('sandbox: the local checkout page pays through a signed webhook, once', async () => {
      const u = await signUp(gw)
      const res = await topup(u, { amount: 12, provider: 'sandbox' })
      const { transactionId, checkoutUrl } = (await res.json()) as any
      const path = new URL(checkoutUrl).pathname
      const page = await gw.request(path)
      expect(await page.text()).toContain('$12.00')
      expect((await gw.request(`${path}/pay`, { method: 'POST' })).status).toBe(200)
      expect((await gw.request(`${path}/pay`, { method: 'POST' })).status).toBe(200)
      expect((await txn(u, transactionId)).status).toBe('completed')
      expect((await account(u)).balance).toBe(12)
      const forged = JSON.stringify({ type: 'payment.succeeded', transactionId, amountCents: 1200, currency: 'usd' })
      const refused = await gw.request('/api/webhooks/sandbox', { method: 'POST', headers: { 'x-sandbox-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }, body: forged })
      expect(refused.status).toBe(400)
      await gw.settled()
      const books = await gw.books(u.id)
      expect(books).toEqual({ balance: 12_000_000n, ledgerSum: 12_000_000n })
    })
  })
}
