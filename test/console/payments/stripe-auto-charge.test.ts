// Auto top-up on Stripe: the setup Checkout's completion and the off-session PaymentIntent's
// events as actions, and a declined card as a declined charge (docs/console.md "Auto top-up").
import { describe, expect, test } from 'bun:test'
import Stripe from 'stripe'
import { ChargeDeclined } from '../../../src/console/payments/provider.ts'
import { autoChargeAction, chargeOffSession, createSetupSession } from '../../../src/console/payments/stripe-auto-charge.ts'

const event = (type: string, object: Record<string, unknown>) => ({ id: 'evt_1', type, data: { object } }) as unknown as Stripe.Event

/** The calls the module makes, answered as Stripe would. */
function fakeStripe(o: { intent?: () => unknown } = {}) {
  const calls: { what: string; params: unknown; options?: unknown }[] = []
  const stripe = {
    setupIntents: { retrieve: async (id: string) => (calls.push({ what: 'retrieve', params: id }), { id, payment_method: 'pm_9' }) },
    checkout: {
      sessions: {
        create: async (params: unknown) => (
          calls.push({ what: 'setup', params }), { id: 'cs_setup', url: 'https://checkout.stripe.test/setup' }
        ),
      },
    },
    paymentIntents: {
      create: async (params: unknown, options: unknown) => {
        calls.push({ what: 'charge', params, options })
        return o.intent ? o.intent() : { id: 'pi_1' }
      },
    },
  }
  return { stripe: stripe as unknown as Stripe, calls }
}

describe('Stripe auto top-up', () => {
  test('a completed setup Checkout saves "<customer>/<payment method>" for its user', async () => {
    const { stripe, calls } = fakeStripe()
    const completed = event('checkout.session.completed', {
      id: 'cs_setup',
      mode: 'setup',
      setup_intent: 'seti_1',
      customer: 'cus_1',
      metadata: { autoTopupUser: 'usr_1' },
    })
    expect(await autoChargeAction(stripe, completed)).toEqual({ kind: 'method_saved', userId: 'usr_1', paymentMethod: 'cus_1/pm_9' })
    expect(calls).toEqual([{ what: 'retrieve', params: 'seti_1' }])
    // A payment Checkout is the top-up path's, not this one's.
    expect(await autoChargeAction(stripe, event('checkout.session.completed', { mode: 'payment' }))).toBeUndefined()
  })

  test.each([
    ['payment_intent.succeeded', {}, { kind: 'paid', transactionId: 'txn_1', sessionId: 'pi_1', amountCents: 500, currency: 'usd' }],
    [
      'payment_intent.payment_failed',
      { last_payment_error: { message: 'Your card was declined.' } },
      { kind: 'failed', transactionId: 'txn_1', sessionId: 'pi_1', reason: 'Your card was declined.' },
    ],
    ['payment_intent.created', {}, { kind: 'ignored', transactionId: 'txn_1', reason: 'unhandled payment_intent.created' }],
  ])('%s of an auto top-up', async (type, extra, action) => {
    const intent = { id: 'pi_1', amount_received: 500, currency: 'usd', metadata: { transactionId: 'txn_1', autoTopup: 'true' }, ...extra }
    expect(await autoChargeAction(fakeStripe().stripe, event(type, intent))).toEqual(action as never)
  })

  test("a PaymentIntent that is not auto top-up's (a Checkout's own) is ignored", async () => {
    const action = await autoChargeAction(fakeStripe().stripe, event('payment_intent.succeeded', { id: 'pi_2', metadata: {} }))
    expect(action).toEqual({ kind: 'ignored', transactionId: null, reason: 'not an auto top-up' })
  })

  test('setup: a Checkout in setup mode for the user; charge: off-session, confirmed, idempotent per top-up', async () => {
    const { stripe, calls } = fakeStripe()
    expect(await createSetupSession(stripe, { userId: 'usr_1', email: 'a@b.c', returnUrl: 'https://t.example/console/topup' })).toEqual({
      url: 'https://checkout.stripe.test/setup',
    })
    expect(calls[0]!.params).toMatchObject({
      mode: 'setup',
      currency: 'usd',
      client_reference_id: 'usr_1',
      metadata: { autoTopupUser: 'usr_1' },
    })
    expect(await chargeOffSession(stripe, { transactionId: 'txn_1', amountCents: 500, paymentMethod: 'cus_1/pm_9' })).toEqual({
      sessionId: 'pi_1',
    })
    expect(calls[1]).toEqual({
      what: 'charge',
      params: {
        amount: 500,
        currency: 'usd',
        customer: 'cus_1',
        payment_method: 'pm_9',
        off_session: true,
        confirm: true,
        metadata: { transactionId: 'txn_1', autoTopup: 'true' },
      },
      options: { idempotencyKey: 'auto-topup-txn_1' },
    })
  })

  test('a declined card is a declined charge; any other failure is not', async () => {
    const declined = fakeStripe({
      intent: () => {
        throw new Stripe.errors.StripeCardError({ message: 'Your card was declined.', type: 'card_error' })
      },
    })
    const charge = (s: Stripe) => chargeOffSession(s, { transactionId: 'txn_1', amountCents: 500, paymentMethod: 'cus_1/pm_9' })
    const err = await charge(declined.stripe).catch((e) => e)
    expect(err).toBeInstanceOf(ChargeDeclined)
    expect(err.message).toBe('Your card was declined.')
    const down = fakeStripe({
      intent: () => {
        throw new Error('socket hang up')
      },
    })
    const other = await charge(down.stripe).catch((e) => e)
    expect(other).not.toBeInstanceOf(ChargeDeclined)
  })
})
