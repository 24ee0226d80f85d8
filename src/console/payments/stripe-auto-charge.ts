// Auto top-up on Stripe (docs/console.md "Auto top-up"): a Checkout Session in setup mode saves
// a card for off-session use; its completion event names the customer and the payment method
// (read from the SetupIntent). A top-up is then a PaymentIntent confirmed off-session, whose
// payment_intent.* webhook events credit or fail it like a checkout's.
import Stripe from 'stripe'
import { ChargeDeclined, type Charge, type ChargeRequest, type PaymentAction, type SetupRequest } from './provider.ts'

/** The saved method as stored: "<customer>/<payment method>". */
const methodOf = (customer: string, paymentMethod: string) => `${customer}/${paymentMethod}`

export async function createSetupSession(stripe: Stripe, req: SetupRequest): Promise<{ url: string }> {
  const session = await stripe.checkout.sessions.create({
    mode: 'setup',
    currency: 'usd',
    customer_creation: 'always',
    customer_email: req.email,
    client_reference_id: req.userId,
    metadata: { autoTopupUser: req.userId },
    success_url: `${req.returnUrl}?autoTopup=saved`,
    cancel_url: `${req.returnUrl}?autoTopup=cancelled`,
  })
  if (!session.url) throw new Error(`setup session ${session.id} has no url`)
  return { url: session.url }
}

export async function chargeOffSession(stripe: Stripe, req: ChargeRequest): Promise<Charge> {
  const [customer, paymentMethod] = req.paymentMethod.split('/')
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: req.amountCents,
        currency: 'usd',
        customer,
        payment_method: paymentMethod,
        off_session: true,
        confirm: true,
        metadata: { transactionId: req.transactionId, autoTopup: 'true' },
      },
      { idempotencyKey: `auto-topup-${req.transactionId}` },
    )
    return { sessionId: intent.id }
  } catch (e) {
    // A card error (declined, authentication required) is the charge's answer, not an outage.
    if (e instanceof Stripe.errors.StripeCardError) throw new ChargeDeclined(e.message)
    throw e
  }
}

/** The auto top-up consequence of a Stripe event, or undefined when it is not one of auto top-up's. */
export async function autoChargeAction(stripe: Stripe, event: Stripe.Event): Promise<PaymentAction | undefined> {
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object as Stripe.Checkout.Session
    if (session.mode !== 'setup') return undefined
    const userId = session.metadata?.autoTopupUser ?? session.client_reference_id ?? ''
    const setup = typeof session.setup_intent === 'string' ? await stripe.setupIntents.retrieve(session.setup_intent) : session.setup_intent
    const pm = typeof setup?.payment_method === 'string' ? setup.payment_method : setup?.payment_method?.id
    const customer = typeof session.customer === 'string' ? session.customer : session.customer?.id
    if (!userId || !pm || !customer) return { kind: 'ignored', transactionId: null, reason: 'setup without a payment method' }
    return { kind: 'method_saved', userId, paymentMethod: methodOf(customer, pm) }
  }
  if (!event.type.startsWith('payment_intent.')) return undefined
  const intent = event.data.object as Stripe.PaymentIntent
  if (intent.metadata?.autoTopup !== 'true') return { kind: 'ignored', transactionId: null, reason: 'not an auto top-up' }
  const transactionId = intent.metadata.transactionId ?? ''
  if (event.type === 'payment_intent.succeeded')
    return { kind: 'paid', transactionId, sessionId: intent.id, amountCents: intent.amount_received, currency: intent.currency }
  if (event.type === 'payment_intent.payment_failed')
    return { kind: 'failed', transactionId, sessionId: intent.id, reason: intent.last_payment_error?.message ?? 'payment failed' }
  return { kind: 'ignored', transactionId, reason: `unhandled ${event.type}` }
}
