// Stripe events → top-up actions, as a table.
import { describe, expect, test } from 'bun:test'
import type Stripe from 'stripe'
import { checkoutAction } from '../../../src/console/payments/stripe.ts'

describe('Stripe events → top-up actions', () => {
  const event = (type: string, session: Partial<Stripe.Checkout.Session>) =>
    ({
      id: 'evt_1',
      type,
      data: {
        object: {
          id: 'cs_1',
          metadata: { transactionId: 'txn_1' },
          amount_total: 1000,
          currency: 'usd',
          payment_status: 'paid',
          ...session,
        },
      },
    }) as unknown as Stripe.Event

  test.each([
    ['checkout.session.completed', {}, { kind: 'paid', transactionId: 'txn_1', sessionId: 'cs_1', amountCents: 1000, currency: 'usd' }],
    [
      'checkout.session.async_payment_succeeded',
      {},
      { kind: 'paid', transactionId: 'txn_1', sessionId: 'cs_1', amountCents: 1000, currency: 'usd' },
    ],
    ['checkout.session.completed', { payment_status: 'unpaid' }, { kind: 'ignored', transactionId: 'txn_1', reason: 'payment unpaid' }],
    [
      'checkout.session.completed',
      { payment_status: 'no_payment_required' },
      { kind: 'ignored', transactionId: 'txn_1', reason: 'payment no_payment_required' },
    ],
    ['checkout.session.expired', {}, { kind: 'failed', transactionId: 'txn_1', sessionId: 'cs_1', reason: 'checkout expired' }],
    ['checkout.session.async_payment_failed', {}, { kind: 'failed', transactionId: 'txn_1', sessionId: 'cs_1', reason: 'payment failed' }],
    [
      'checkout.session.completed',
      { metadata: {}, client_reference_id: 'txn_2' },
      { kind: 'paid', transactionId: 'txn_2', sessionId: 'cs_1', amountCents: 1000, currency: 'usd' },
    ],
    ['payment_intent.succeeded', {}, { kind: 'ignored', transactionId: null, reason: 'not a checkout event' }],
  ] as const)('%s %p', (type, session, action) => {
    expect(checkoutAction(event(type, session as Partial<Stripe.Checkout.Session>))).toEqual(action as never)
  })
})
