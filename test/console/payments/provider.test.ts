// The payment provider contract (console/payments/provider.ts), run against every provider the
// registry builds (Stripe against a local fake of its API): a checkout names the pending top-up
// and comes back with an id and a URL; a webhook body without a valid signature is refused, never
// turned into an event; a refused charge is a ChargeDeclined, an Error the trigger tells apart.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ChargeDeclined, type PaymentProvider } from '../../../src/console/payments/provider.ts'
import { paymentProviders } from '../../../src/console/payments/registry.ts'
import { type FakeStripe, startFakeStripe } from '../helpers.ts'

describe('every configured provider keeps the contract', () => {
  let fake: FakeStripe
  let providers: ReadonlyMap<string, PaymentProvider>
  beforeAll(() => {
    fake = startFakeStripe()
    providers = paymentProviders({
      stripe: { secretKey: 'sk_test_contract', webhookSecret: 'whsec_contract', apiBase: fake.url },
      sandboxPayments: { secret: 'sandbox-contract' },
    })
  })
  afterAll(() => fake.stop())

  const request = (transactionId: string) => ({
    transactionId,
    amountCents: 1234,
    email: 'payer@test.local',
    returnUrl: 'http://console.example/console/topup/return',
    origin: 'http://console.example',
  })

  test('both providers are configured', () => {
    expect([...providers.keys()].sort()).toEqual(['sandbox', 'stripe'])
  })

  for (const name of ['sandbox', 'stripe']) {
    test(`${name}: a checkout for the top-up answers a session id and an absolute URL`, async () => {
      const p = providers.get(name)!
      const checkout = await p.createCheckout(request(`txn_${name}_1`))
      expect(checkout.sessionId.length).toBeGreaterThan(0)
      expect(new URL(checkout.url).protocol).toMatch(/^https?:$/)
      if (name === 'stripe') expect(fake.sessions.at(-1)).toMatchObject({ amount: 1234, transactionId: 'txn_stripe_1' })
      else expect(checkout.url).toBe('http://console.example/api/payments/sandbox/txn_sandbox_1')
    })

    test(`${name}: an unsigned or wrongly signed body is refused`, async () => {
      const p = providers.get(name)!
      const body = JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', transactionId: 'txn_1', amountCents: 100 })
      await expect(p.verifyWebhook(body, new Headers())).rejects.toBeInstanceOf(Error)
      const forged = new Headers({
        'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
        'x-sandbox-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      })
      await expect(p.verifyWebhook(body, forged)).rejects.toBeInstanceOf(Error)
    })
  }

  test('ChargeDeclined is an Error with the reason as its message, apart from other errors', () => {
    const declined = new ChargeDeclined('card declined')
    expect(declined).toBeInstanceOf(Error)
    expect(declined.message).toBe('card declined')
    expect(new Error('network') instanceof ChargeDeclined).toBe(false)
  })
})
