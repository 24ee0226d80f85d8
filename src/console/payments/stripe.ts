// Stripe Checkout through the official SDK. Webhooks are verified by the SDK (HMAC over the raw
// body, 5-minute timestamp tolerance both ways, so an old delivery replayed later is refused). The SDK
// client is built from config when the app is composed; STRIPE_API_BASE points it at another
// host (tests run a local fake).
import Stripe from 'stripe'
import type { PaymentAction, PaymentProvider } from './provider.ts'
import { autoChargeAction, chargeOffSession, createSetupSession } from './stripe-auto-charge.ts'

/** Stripe's default: a delivery more than 5 minutes from now, either way, is refused. */
export const TOLERANCE_SECONDS = 300

export interface StripeSettings {
  secretKey: string
  webhookSecret: string
  apiBase: string | undefined
}

export function stripeProvider(cfg: StripeSettings): PaymentProvider {
  const base = cfg.apiBase ? new URL(cfg.apiBase) : undefined
  const stripe = new Stripe(cfg.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    httpClient: Stripe.createFetchHttpClient(),
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  })
  const crypto = Stripe.createSubtleCryptoProvider()
  return {
    name: 'stripe',
    async createCheckout(req) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: req.transactionId,
          customer_email: req.email,
          metadata: { transactionId: req.transactionId },
          line_items: [
            { quantity: 1, price_data: { currency: 'usd', unit_amount: req.amountCents, product_data: { name: 'Tollgate credit' } } },
          ],
          success_url: `${req.returnUrl}?topup=${req.transactionId}&status=success`,
          cancel_url: `${req.returnUrl}?topup=${req.transactionId}&status=cancelled`,
        },
        // A retried create (network error) returns the same session instead of a second one.
        { idempotencyKey: `topup-${req.transactionId}` },
      )
      if (!session.url) throw new Error(`checkout session ${session.id} has no url`)
      return { sessionId: session.id, url: session.url }
    },
    async verifyWebhook(rawBody, headers, nowMs = Date.now()) {
      const signature = headers.get('stripe-signature') ?? ''
      // The SDK refuses a timestamp older than the tolerance but not one from the future; a
      // signature dated ahead would stay replayable for as long (docs/security.md "Webhooks").
      const t = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(signature)?.[1])
      if (Number.isFinite(t) && t * 1000 > nowMs + TOLERANCE_SECONDS * 1000) throw new Error('Stripe-Signature timestamp is in the future')
      const event = await stripe.webhooks.constructEventAsync(rawBody, signature, cfg.webhookSecret, TOLERANCE_SECONDS, crypto)
      // Correctly signed is not well formed: an event without an id or type is refused (400), not
      // stored, so the provider's retries end there instead of failing forever.
      if (
        typeof event?.id !== 'string' ||
        event.id === '' ||
        event.id.length > 255 ||
        typeof event.type !== 'string' ||
        typeof event.data?.object !== 'object' ||
        event.data.object === null
      )
        throw new Error('Stripe event without id, type or data.object')
      return { id: event.id, type: event.type, action: (await autoChargeAction(stripe, event)) ?? checkoutAction(event) }
    },
    setupAutoCharge: (req) => createSetupSession(stripe, req),
    chargeSaved: (req) => chargeOffSession(stripe, req),
  }
}

/** The top-up consequence of a Stripe event (total: every other event is ignored). */
export function checkoutAction(event: Stripe.Event): PaymentAction {
  if (!event.type.startsWith('checkout.session.')) return { kind: 'ignored', transactionId: null, reason: 'not a checkout event' }
  const session = event.data.object as Stripe.Checkout.Session
  const transactionId = session.metadata?.transactionId ?? session.client_reference_id ?? ''
  const sessionId = session.id
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      // A delayed payment method completes the session unpaid; its async_payment_* event decides.
      if (session.payment_status !== 'paid') return { kind: 'ignored', transactionId, reason: `payment ${session.payment_status}` }
      return { kind: 'paid', transactionId, sessionId, amountCents: session.amount_total ?? -1, currency: session.currency ?? '' }
    case 'checkout.session.expired':
      return { kind: 'failed', transactionId, sessionId, reason: 'checkout expired' }
    case 'checkout.session.async_payment_failed':
      return { kind: 'failed', transactionId, sessionId, reason: 'payment failed' }
    default:
      return { kind: 'ignored', transactionId, reason: `unhandled ${event.type}` }
  }
}
