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
  /** A payment method saved for auto top-up (docs/console.md "Auto top-up"). */
  | { kind: 'method_saved'; userId: string; paymentMethod: string }
  | { kind: 'failed'; transactionId: string; sessionId: string; reason: string }
  | { kind: 'ignored'; transactionId: string | null; reason: string }

export interface PaymentEvent {
  /** The provider's event id: a redelivery carries the same one. */
  id: string
  type: string
  action: PaymentAction
}

/** Saving a payment method for auto top-up. */
export interface SetupRequest {
  userId: string
  email: string
  /** Where the provider sends the user back (the console's wallet page). */
  returnUrl: string
}

/** An off-session charge of a saved payment method for a pending auto top-up. */
export interface ChargeRequest {
  transactionId: string
  amountCents: number
  paymentMethod: string
}

export interface Charge {
  /** The provider's id of the payment, matched by its webhook event. */
  sessionId: string
  /** A signed event to deliver through the webhook path at once (a provider that answers itself). */
  delivery?: { body: string; headers: Headers }
}

/** The provider refused the charge at once (a declined card): the top-up fails with this reason. */
export class ChargeDeclined extends Error {}

export interface PaymentProvider {
  readonly name: string
  createCheckout(req: CheckoutRequest): Promise<Checkout>
  /** A page where the user saves a payment method (its webhook brings `method_saved`), or the method at once. */
  setupAutoCharge(req: SetupRequest): Promise<{ url: string } | { paymentMethod: string }>
  /** Charges a saved method off-session; throws ChargeDeclined when refused at once. */
  chargeSaved(req: ChargeRequest): Promise<Charge>
  /** Verifies the signature over the raw body; throws on a forged, stale or malformed event. */
  verifyWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent>
}
