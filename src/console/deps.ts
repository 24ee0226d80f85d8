// What every console feature is given: the process dependencies plus the console's own pieces,
// built once per app from config (no clients at import time).
import { ipMatcher } from '../lib/ip.ts'
import type { AppDeps as InferenceDeps } from '../runtime.ts'
import { paymentProviders } from './payments/registry.ts'
import type { PaymentProvider } from './payments/provider.ts'

export interface ConsoleDeps extends InferenceDeps {
  isTrustedProxy: (ip: string | undefined) => boolean
  /** Configured payment providers by name (`stripe`, `sandbox`). */
  payments: ReadonlyMap<string, PaymentProvider>
}

export function consoleDeps(deps: InferenceDeps): ConsoleDeps {
  // `now` is looked up on each call, so a test that pins deps.now pins the console's clock too.
  return { ...deps, now: () => deps.now(), isTrustedProxy: ipMatcher(deps.config.trustedProxies), payments: paymentProviders(deps.config) }
}
