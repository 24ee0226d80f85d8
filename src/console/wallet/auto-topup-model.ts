// GET|PUT /api/wallet/auto-topup models (docs/console.md "Auto top-up"): USD numbers.
import { t } from 'elysia'
import { Nullable } from '../http/models.ts'

export const AutoTopupSettings = t.Object({
  enabled: t.Boolean(),
  threshold: t.Number({ minimum: 0, maximum: 10_000, description: 'USD: a settlement leaving the balance under it starts a top-up' }),
  amount: t.Number({ description: 'USD per top-up, whole cents within the top-up policy' }),
  provider: t.String({ minLength: 1, maxLength: 50, description: 'A configured payment provider: stripe or sandbox' }),
})
export type AutoTopupSettings = typeof AutoTopupSettings.static

export const AutoTopupView = t.Object({
  enabled: t.Boolean(),
  threshold: Nullable(t.Number()),
  amount: Nullable(t.Number()),
  provider: Nullable(t.String()),
  paymentMethodSaved: t.Boolean({ description: 'Whether the provider holds a payment method to charge' }),
  inFlight: t.Boolean({ description: 'A top-up started and not yet credited or failed' }),
  lowBalance: t.Boolean({ description: 'The balance crossed under the threshold and has not come back over it' }),
  lastError: Nullable(t.String({ description: 'Why auto top-up was turned off (a failed charge)' })),
  setupUrl: Nullable(t.String({ description: 'PUT: where to save a payment method before auto top-up can charge' })),
})
export type AutoTopupView = typeof AutoTopupView.static
