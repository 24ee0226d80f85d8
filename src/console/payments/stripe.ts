// Stripe Checkout through the official SDK; webhooks verified with the SDK's signature check
// (its default 5-minute tolerance refuses replays of old events). STRIPE_API_BASE points the SDK
// at another host (tests use a local fake).
import Stripe from 'stripe'
import type { PaymentProvider } from './provider.ts'

export function stripeProvider(cfg: { secretKey: string; webhookSecret: string; apiBase: string | undefined }): PaymentProvider {
  const base = cfg.apiBase ? new URL(cfg.apiBase) : undefined
  const stripe = new Stripe(cfg.secretKey, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    httpClient: Stripe.createFetchHttpClient(),
    ...(base ? { host: base.hostname, port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
  })
  const crypto = Stripe.createSubtleCryptoProvider()
  return {
    name: 'stripe',
    async createCheckout(req) {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        client_reference_id: req.transactionId,
        customer_email: req.email,
        metadata: { transactionId: req.transactionId },
        line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: req.amountCents, product_data: { name: 'Tollgate credit' } } }],
        success_url: `${req.returnUrl}?topup=${req.transactionId}&status=success`,
        cancel_url: `${req.returnUrl}?topup=${req.transactionId}&status=cancelled`,
      })
      return { sessionId: session.id, url: session.url ?? '' }
    },
    async parseWebhook(rawBody, headers) {
      const event = await stripe.webhooks.constructEventAsync(rawBody, headers.get('stripe-signature') ?? '', cfg.webhookSecret, undefined, crypto)
      if (!event.type.startsWith('checkout.session.')) return { kind: 'ignored' }
      const session = event.data.object as Stripe.Checkout.Session
      const transactionId = session.metadata?.transactionId ?? session.client_reference_id ?? ''
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          if (session.payment_status !== 'paid') return { kind: 'ignored' }
          return { kind: 'paid', transactionId, amountCents: session.amount_total ?? -1, currency: session.currency ?? '', providerRef: session.id }
        case 'checkout.session.expired':
          return { kind: 'failed', transactionId, reason: 'checkout expired' }
        case 'checkout.session.async_payment_failed':
          return { kind: 'failed', transactionId, reason: 'payment failed' }
        default:
          return { kind: 'ignored' }
      }
    },
  }
}
