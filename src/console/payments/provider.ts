// A payment provider opens a checkout for a pending top-up and turns its own signed webhook into
// one verified event. Providers never touch the ledger: billing/topups.ts applies the event.

export interface CheckoutRequest {
  transactionId: string
  amountCents: number
  email: string
  /** Where the provider sends the payer back, adding `?topup=<transactionId>&status=success|cancelled` (the console's return page). */
  returnUrl: string
  /** This service's external origin, for providers that host their checkout page here. */
  origin: string
}

export interface Checkout {
  /** The provider's id of the checkout (a Stripe Checkout Session id). */
  sessionId: string
  url: string
}

export type PaymentAction =
  | { kind: 'paid'; transactionId: string; sessionId: string; amountCents: number; currency: string }
  | { kind: 'failed'; transactionId: string; sessionId: string; reason: string }
  | { kind: 'ignored'; transactionId: string | null; reason: string }

export interface PaymentEvent {
  /** The provider's event id: a redelivery carries the same one. */
  id: string
  type: string
  action: PaymentAction
}

export interface PaymentProvider {
  readonly name: string
  createCheckout(req: CheckoutRequest): Promise<Checkout>
  /** Verifies the signature over the raw body; throws on a forged, stale or malformed event. */
  verifyWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent>
}
