// What the console is given, and what each of its features may use. `consoleRoutes` receives the
// process's pieces it needs (ConsoleInput: createApp's dependencies fit it as they are) and adds
// the console's own, built once per app from config (no clients at import time). Each feature
// takes a Pick of ConsoleDeps naming what it uses.
import type { ApiKeyAuth } from '../auth/api-keys.ts'
import type { Catalog } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { ipMatcher } from '../lib/ip.ts'
import type { Logger } from '../lib/log.ts'
import type { Store } from '../store/types.ts'
import { createMailer, type Mailer } from './mail/mailer.ts'
import type { PaymentProvider } from './payments/provider.ts'
import { paymentProviders } from './payments/registry.ts'

/** The settings the console reads. */
export type ConsoleConfig = Pick<
  Config,
  | 'publicUrl'
  | 'trustedProxies'
  | 'maxBodyBytes'
  | 'sessionTtlSeconds'
  | 'smtp'
  | 'requireEmailVerification'
  | 'defaultRpm'
  | 'topupMinUsd'
  | 'topupMaxUsd'
  | 'stripe'
  | 'sandboxPayments'
  | 'lowBalanceWebhook'
>

export interface ConsoleInput {
  db: Db
  store: Store
  /** The public catalog page reads the loaded models. */
  catalog: Pick<Catalog, 'all'>
  /** A revoked key leaves this instance's key cache at once. */
  auth: Pick<ApiKeyAuth, 'invalidate'>
  config: ConsoleConfig
  log: Logger
  now: () => number
  /** Auto top-up settings saved here leave this instance's cache at once. */
  autoTopup?: { invalidate(userId: string): void }
}

export interface ConsoleDeps extends ConsoleInput {
  isTrustedProxy: (ip: string | undefined) => boolean
  /** Configured payment providers by name (`stripe`, `sandbox`). */
  payments: ReadonlyMap<string, PaymentProvider>
  /** Console emails: SMTP, or the operator's log without it. */
  mailer: Mailer
}

export function consoleDeps(input: ConsoleInput): ConsoleDeps {
  return {
    db: input.db,
    store: input.store,
    catalog: input.catalog,
    auth: input.auth,
    config: input.config,
    log: input.log,
    autoTopup: input.autoTopup,
    // Looked up on each call, so a test that pins the process's `now` pins the console's clock too.
    now: () => input.now(),
    isTrustedProxy: ipMatcher(input.config.trustedProxies),
    payments: paymentProviders(input.config),
    mailer: createMailer(input.config.smtp, input.log),
  }
}
