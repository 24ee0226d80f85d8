// A payment provider: opens a checkout for a pending top-up and turns its verified webhook into
// a completion or failure of that top-up.

export interface Checkout {
  sessionId: string
  url: string
}

export interface CheckoutRequest {
  transactionId: string
  amountCents: number
  email: string
  returnUrl: string
  /** This service's external origin, for providers that host their own pages here. */
  origin: string
}

export type WebhookOutcome =
  | { kind: 'paid'; transactionId: string; amountCents: number; currency: string; providerRef: string }
  | { kind: 'failed'; transactionId: string; reason: string }
  | { kind: 'ignored' }

export interface PaymentProvider {
  readonly name: string
  createCheckout(req: CheckoutRequest): Promise<Checkout>
  /** Verifies the signature over the raw body; throws on a forged, stale or malformed event. */
  parseWebhook(rawBody: string, headers: Headers): Promise<WebhookOutcome>
}
