// Top-ups (docs/console.md "Top-ups"): policy (400) and provider (402) errors; Stripe Checkout
// through the official SDK against a local fake; webhooks signed with the SDK's test helper —
// valid, forged, replayed, tampered, duplicated, concurrent, reordered, mismatched; the sandbox
// provider's page; and after all of it the books: balance == sum of completed ledger entries, store
// mirror too.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { signSandboxEvent } from '../../src/console/payments/sandbox.ts'
import { paymentEvents } from '../../src/db/schema/index.ts'
import { ALL_BACKENDS, startTestGateway, simpleCatalog, type TestGateway } from '../helpers/gateway.ts'
import { browser, checkoutEvent, CONSOLE_ENV, json, signUp, startFakeStripe, type FakeStripe, type SignedIn } from './helpers.ts'

const WEBHOOK_SECRET = 'whsec_test_secret_for_tollgate'
const SANDBOX_SECRET = 'sandbox-secret-for-tests'
const stripe = new Stripe('sk_test_unused')
const sign = (payload: string, opts: { timestamp?: number; secret?: string } = {}) =>
  stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp })

for (const backends of ALL_BACKENDS) {
  describe(`top-ups on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let fake: FakeStripe
    beforeAll(async () => {
      fake = startFakeStripe()
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
        ...CONSOLE_ENV,
        STRIPE_SECRET_KEY: 'sk_test_tollgate',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: fake.url,
        SANDBOX_PAYMENTS_SECRET: SANDBOX_SECRET,
        TOPUP_MIN_USD: '5',
        TOPUP_MAX_USD: '500',
      })
    })
    afterAll(async () => {
      await gw.stop()
      fake.stop()
    })

    const hook = async (payload: string, signature: string | Promise<string>) =>
      gw.request('/api/webhooks/stripe', {
        method: 'POST',
        headers: { 'stripe-signature': await signature, 'content-type': 'application/json' },
        body: payload,
      })
    const account = (u: SignedIn) => json(u.get('/api/wallet/account'))
    const txn = (u: SignedIn, id: string) => json(u.get(`/api/wallet/transactions/${id}`))

    async function stripeTopup(u: SignedIn, amount: number) {
      const res = await u.post('/api/wallet/topup', { amount, provider: 'stripe' })
      expect(res.status).toBe(201)
      const body = await json<{ transactionId: string; checkoutUrl: string }>(res)
      const session = fake.sessions.find((s) => s.transactionId === body.transactionId)!
      return { ...body, session }
    }

    /** Postgres books and the store's hot mirror agree with the ledger. */
    async function expectBooks(u: SignedIn, micros: bigint) {
      await gw.settled()
      expect(await gw.books(u.id)).toEqual({ balance: micros, ledgerSum: micros })
      expect((await account(u)).balance).toBe(Number(micros) / 1e6)
    }

    test('amounts outside the policy → 400 BAD_REQUEST; unconfigured provider → 402 PAYMENT_REQUIRED; nothing recorded', async () => {
      const u = await signUp(gw)
      for (const amount of [4.99, 500.01, 10.001, -5, 0, 1e9]) {
        const res = await u.post('/api/wallet/topup', { amount, provider: 'stripe' })
        expect(res.status).toBe(400)
        expect(await json(res)).toEqual({
          error: { code: 'BAD_REQUEST', message: 'amount must be between 5.00 and 500.00 USD, in whole cents.' },
        })
      }
      for (const provider of ['paypal', 'STRIPE', 'x']) {
        const res = await u.post('/api/wallet/topup', { amount: 10, provider })
        expect(res.status).toBe(402)
        expect((await json(res)).error.code).toBe('PAYMENT_REQUIRED')
      }
      for (const body of [{ amount: '10', provider: 'stripe' }, { amount: 10 }, {}])
        expect((await u.post('/api/wallet/topup', body)).status).toBe(422)
      expect((await browser(gw).post('/api/wallet/topup', { amount: 10, provider: 'stripe' })).status).toBe(401)
      expect((await json(u.get('/api/wallet/transactions'))).items).toEqual([])
      expect(fake.sessions.filter((s) => s.transactionId === '')).toEqual([])
      // The account shows the policy a client should offer.
      expect((await account(u)).topup).toEqual({ min: 5, max: 500, providers: ['stripe', 'sandbox'] })
    })

    test('Stripe: a pending entry and a Checkout Session through the SDK; a valid webhook credits it once', async () => {
      const u = await signUp(gw)
      const t = await stripeTopup(u, 25.5)
      expect(t.checkoutUrl).toBe(`https://checkout.stripe.test/c/pay/${t.session.id}`)
      expect(t.session).toMatchObject({ amount: 2550, currency: 'usd', idempotencyKey: `topup-${t.transactionId}` })
      expect(await txn(u, t.transactionId)).toMatchObject({
        kind: 'topup',
        status: 'pending',
        amount: 25.5,
        method: 'stripe',
        completedAt: null,
      })
      expect((await account(u)).pendingTopups).toEqual({ count: 1, amount: 25.5 })
      expect((await account(u)).balance).toBe(0)

      const event = checkoutEvent('checkout.session.completed', t.session)
      const res = await hook(event, sign(event))
      expect(res.status).toBe(200)
      expect(await json(res)).toEqual({ received: true, outcome: 'credited' })
      const detail = await txn(u, t.transactionId)
      expect(detail).toMatchObject({ status: 'completed', amount: 25.5 })
      expect(detail.events).toEqual([{ type: 'checkout.session.completed', outcome: 'credited', receivedAt: expect.any(String) }])
      expect((await account(u)).pendingTopups).toEqual({ count: 0, amount: 0 })
      await expectBooks(u, 25_500_000n)
    })

    test('Stripe: duplicated and concurrent deliveries, and a second success event, credit exactly once', async () => {
      const u = await signUp(gw)
      const t = await stripeTopup(u, 40)
      const event = checkoutEvent('checkout.session.completed', t.session)
      const signature = await sign(event)
      // The same event delivered 8 times at once, and a different event for the same payment.
      const other = checkoutEvent('checkout.session.async_payment_succeeded', t.session)
      const replies = await Promise.all([...Array.from({ length: 8 }, () => hook(event, signature)), hook(other, sign(other))])
      expect(replies.map((r) => r.status)).toEqual(Array(9).fill(200))
      const outcomes = (await Promise.all(replies.map((r) => json(r)))).map((b) => b.outcome).sort()
      expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1)
      expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(7)
      expect(outcomes).toContain('ignored: already completed')
      // Redelivered later, as Stripe does when it missed our 200.
      expect(await json(hook(event, sign(event)))).toEqual({ received: true, outcome: 'duplicate' })
      await expectBooks(u, 40_000_000n)
      const events = await gw.runtime.deps.db.select().from(paymentEvents).where(eq(paymentEvents.transactionId, t.transactionId))
      expect(events).toHaveLength(2)
    })

    test('Stripe: forged, tampered and replayed signatures are 400 and credit nothing', async () => {
      const u = await signUp(gw)
      const t = await stripeTopup(u, 10)
      const event = checkoutEvent('checkout.session.completed', t.session)
      const refusals = [
        await hook(event, sign(event, { secret: 'whsec_attacker' })),
        await hook(event, 'garbage'),
        await hook(event, ''),
        // The SDK's 5-minute tolerance: a captured delivery replayed an hour later.
        await hook(event, sign(event, { timestamp: Math.floor(Date.now() / 1000) - 3_600 })),
        await hook(event.replace('"amount_total":1000', '"amount_total":100000'), sign(event)),
      ]
      for (const r of refusals) {
        expect(r.status).toBe(400)
        expect(await json(r)).toEqual({ error: { code: 'BAD_REQUEST', message: 'Webhook signature verification failed.' } })
      }
      expect((await txn(u, t.transactionId)).status).toBe('pending')
      expect(await gw.runtime.deps.db.select().from(paymentEvents).where(eq(paymentEvents.transactionId, t.transactionId))).toEqual([])
      // The genuine delivery still goes through afterwards.
      expect(await json(hook(event, sign(event)))).toMatchObject({ outcome: 'credited' })
      await expectBooks(u, 10_000_000n)
    })

    test('Stripe: a signed event for another amount, currency or session credits nothing', async () => {
      const u = await signUp(gw)
      const wrongAmount = await stripeTopup(u, 10)
      const e1 = checkoutEvent('checkout.session.completed', { ...wrongAmount.session, amount: 99 })
      expect(await json(hook(e1, sign(e1)))).toMatchObject({ outcome: 'failed' })
      const d1 = await txn(u, wrongAmount.transactionId)
      expect(d1.status).toBe('failed')
      expect(d1.failure).toContain('990000')
      const wrongCurrency = await stripeTopup(u, 10)
      const e2 = checkoutEvent('checkout.session.completed', { ...wrongCurrency.session, currency: 'eur' })
      expect(await json(hook(e2, sign(e2)))).toMatchObject({ outcome: 'failed' })
      const wrongSession = await stripeTopup(u, 10)
      const e3 = checkoutEvent('checkout.session.completed', { ...wrongSession.session, id: 'cs_test_someone_else' })
      expect(await json(hook(e3, sign(e3)))).toMatchObject({ outcome: 'ignored: another checkout session' })
      expect((await txn(u, wrongSession.transactionId)).status).toBe('pending')
      const unknown = checkoutEvent('checkout.session.completed', { ...wrongSession.session, transactionId: 'txn_nope' })
      expect(await json(hook(unknown, sign(unknown)))).toMatchObject({ outcome: 'ignored: unknown top-up' })
      // Unpaid completion (delayed payment method) and unrelated events move nothing.
      const unpaid = checkoutEvent('checkout.session.completed', wrongSession.session, 'unpaid')
      expect(await json(hook(unpaid, sign(unpaid)))).toMatchObject({ outcome: 'ignored: payment unpaid' })
      const other = JSON.stringify({ id: 'evt_other', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } })
      expect(await json(hook(other, sign(other)))).toMatchObject({ outcome: 'ignored: not a checkout event' })
      await expectBooks(u, 0n)
    })

    test('Stripe: reordered events — expired after completed changes nothing; completed after expired credits nothing', async () => {
      const u = await signUp(gw)
      const a = await stripeTopup(u, 7)
      const done = checkoutEvent('checkout.session.completed', a.session)
      await hook(done, sign(done))
      const late = checkoutEvent('checkout.session.expired', a.session, 'unpaid')
      expect(await json(hook(late, sign(late)))).toMatchObject({ outcome: 'ignored: already completed' })
      expect((await txn(u, a.transactionId)).status).toBe('completed')

      const b = await stripeTopup(u, 8)
      const expired = checkoutEvent('checkout.session.expired', b.session, 'unpaid')
      expect(await json(hook(expired, sign(expired)))).toMatchObject({ outcome: 'failed' })
      const detail = await txn(u, b.transactionId)
      expect(detail).toMatchObject({ status: 'failed', failure: 'checkout expired' })
      const after = checkoutEvent('checkout.session.completed', b.session)
      expect(await json(hook(after, sign(after)))).toMatchObject({ outcome: 'ignored: already failed' })
      await expectBooks(u, 7_000_000n)
    })

    test('Stripe: a completion racing an expiry moves the entry exactly once, either way', async () => {
      const u = await signUp(gw)
      const tops = await Promise.all(Array.from({ length: 5 }, () => stripeTopup(u, 5)))
      await Promise.all(
        tops.flatMap((t) => {
          const done = checkoutEvent('checkout.session.completed', t.session)
          const expired = checkoutEvent('checkout.session.expired', t.session, 'unpaid')
          return [hook(done, sign(done)), hook(expired, sign(expired)), hook(done, sign(done))]
        }),
      )
      const statuses = await Promise.all(tops.map(async (t) => (await txn(u, t.transactionId)).status))
      for (const s of statuses) expect(['completed', 'failed']).toContain(s)
      const credited = statuses.filter((s) => s === 'completed').length
      await expectBooks(u, BigInt(credited) * 5_000_000n)
    })

    test('Stripe: a checkout the provider refuses fails the entry and answers 502', async () => {
      const u = await signUp(gw)
      fake.failNext(400)
      const res = await u.post('/api/wallet/topup', { amount: 20, provider: 'stripe' })
      expect(res.status).toBe(502)
      const body = await json(res)
      expect(body.error.code).toBe('UPSTREAM_ERROR')
      expect(JSON.stringify(body)).not.toContain('fake')
      const [entry] = (await json(u.get('/api/wallet/transactions?kind=topup'))).items
      expect(entry).toMatchObject({ status: 'failed', amount: 20 })
      await expectBooks(u, 0n)
    })

    test('sandbox: the owner pays on the local page through a signed webhook, once; others see nothing', async () => {
      const u = await signUp(gw)
      const started = await json(u.post('/api/wallet/topup', { amount: 12, provider: 'sandbox' }))
      expect(started).toMatchObject({ status: 'pending', amount: 12, provider: 'sandbox' })
      const path = new URL(started.checkoutUrl).pathname
      expect(path).toBe(`/api/payments/sandbox/${started.transactionId}`)
      const page = await u.get(path)
      expect(page.headers.get('content-type')).toContain('text/html')
      expect(await page.text()).toContain('$12.00')
      // Another user, and nobody, cannot see or pay it; a cross-site form post is refused.
      const stranger = await signUp(gw)
      expect((await stranger.get(path)).status).toBe(404)
      expect((await stranger.post(`${path}/pay`)).status).toBe(404)
      expect((await browser(gw).post(`${path}/pay`)).status).toBe(401)
      expect((await u.post(`${path}/pay`, undefined, { origin: 'https://evil.example' })).status).toBe(403)
      expect((await txn(u, started.transactionId)).status).toBe('pending')

      const paid = await u.post(`${path}/pay`)
      expect(paid.status).toBe(200)
      expect(await paid.text()).toContain('completed')
      expect((await u.post(`${path}/pay`)).status).toBe(200)
      expect((await txn(u, started.transactionId)).status).toBe('completed')
      await expectBooks(u, 12_000_000n)
    })

    test('sandbox: cancel fails the top-up; forged and stale sandbox webhooks are refused', async () => {
      const u = await signUp(gw)
      const started = await json(u.post('/api/wallet/topup', { amount: 6, provider: 'sandbox' }))
      const path = new URL(started.checkoutUrl).pathname
      const event = JSON.stringify({
        id: 'sbx_evt_forged',
        type: 'payment.succeeded',
        transactionId: started.transactionId,
        amountCents: 600,
        currency: 'usd',
      })
      const post = (signature: string) =>
        gw.request('/api/webhooks/sandbox', { method: 'POST', headers: { 'x-sandbox-signature': signature }, body: event })
      expect((await post(`t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`)).status).toBe(400)
      expect((await post(signSandboxEvent('wrong-secret', event))).status).toBe(400)
      expect((await post(signSandboxEvent(SANDBOX_SECRET, event, Math.floor(Date.now() / 1000) - 600))).status).toBe(400)
      expect((await txn(u, started.transactionId)).status).toBe('pending')
      expect((await u.post(`${path}/cancel`)).status).toBe(200)
      expect(await txn(u, started.transactionId)).toMatchObject({ status: 'failed', failure: 'payment failed' })
      // Signed with the secret, it is a genuine event — and the failed top-up stays failed.
      expect(await json(post(signSandboxEvent(SANDBOX_SECRET, event)))).toMatchObject({ outcome: 'ignored: already failed' })
      await expectBooks(u, 0n)
    })
  })
}

describe('top-ups without payment providers', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
  })
  afterAll(() => gw.stop())

  test('every provider is 402; the webhook and sandbox paths do not exist', async () => {
    const u = await signUp(gw)
    for (const provider of ['stripe', 'sandbox']) {
      const res = await u.post('/api/wallet/topup', { amount: 10, provider })
      expect(res.status).toBe(402)
      expect((await json(res)).error.code).toBe('PAYMENT_REQUIRED')
    }
    expect((await gw.request('/api/webhooks/stripe', { method: 'POST', body: '{}' })).status).toBe(404)
    expect((await u.get('/api/payments/sandbox/txn_x')).status).toBe(404)
    expect((await json(u.get('/api/wallet/account'))).topup.providers).toEqual([])
  })
})
