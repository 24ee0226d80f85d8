// Top-up models. The amount is checked against the policy in the service, so an out-of-policy
// amount is a 400 BAD_REQUEST (docs/console.md "Top-ups") rather than a schema failure.
import { t } from 'elysia'

export const TopupRequest = t.Object({
  amount: t.Number({ description: 'USD, whole cents, within the top-up policy (technical maximum 10,000)' }),
  provider: t.String({ minLength: 1, maxLength: 50, description: 'A configured payment provider: stripe or sandbox' }),
})
export type TopupRequest = typeof TopupRequest.static

export const TopupStarted = t.Object({
  transactionId: t.String({ description: 'The pending topup ledger entry' }),
  checkoutUrl: t.String({ description: "Send the payer here: the provider's checkout page" }),
  status: t.Literal('pending'),
  amount: t.Number(),
  currency: t.Literal('USD'),
  provider: t.String(),
})
