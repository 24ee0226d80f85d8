// The payment providers this deployment has configured (docs/console.md "Top-ups": an unconfigured provider is 402).
import type { Config } from '../../config.ts'
import type { PaymentProvider } from './provider.ts'
import { sandboxProvider } from './sandbox.ts'
import { stripeProvider } from './stripe.ts'

export function paymentProviders(config: Pick<Config, 'stripe' | 'sandboxPayments'>): ReadonlyMap<string, PaymentProvider> {
  const providers = new Map<string, PaymentProvider>()
  if (config.stripe) providers.set('stripe', stripeProvider(config.stripe))
  if (config.sandboxPayments) providers.set('sandbox', sandboxProvider(config.sandboxPayments))
  return providers
}
