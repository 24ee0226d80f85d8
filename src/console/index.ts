// The console (docs/console.md): accounts and sessions, API keys, wallet account,
// transactions, request logs, top-ups with their provider webhooks, and the public catalog.
// Each feature is one Elysia instance (index.ts routes, service.ts logic, model.ts TypeBox
// models); http/ holds what they share: the request context (client IP, per-IP limits,
// same-origin check, the `signedIn` macro), cookies, keyset pagination and shared models.
import { Elysia } from 'elysia'
import { consoleErrorHook } from '../http/console-error.ts'
import { authFeature } from './auth/index.ts'
import { recoveryFeature } from './auth/recovery.ts'
import { publicCatalogFeature } from './catalog/index.ts'
import { type ConsoleInput, consoleDeps } from './deps.ts'
import { keysFeature } from './keys/index.ts'
import { logsFeature } from './logs/index.ts'
import { topupFeature } from './topup/index.ts'
import { transactionsFeature } from './transactions/index.ts'
import { walletFeature } from './wallet/index.ts'
import { webhooksFeature } from './webhooks/index.ts'
import { sandboxCheckoutFeature } from './webhooks/sandbox-checkout.ts'

export function consoleRoutes(input: ConsoleInput) {
  const deps = consoleDeps(input)
  const sandbox = deps.config.sandboxPayments
  return new Elysia()
    .onError(consoleErrorHook(input.log))
    .use(authFeature(deps))
    .use(recoveryFeature(deps))
    .use(keysFeature(deps))
    .use(walletFeature(deps))
    .use(transactionsFeature(deps))
    .use(logsFeature(deps))
    .use(topupFeature(deps))
    .use(webhooksFeature(deps))
    .use(publicCatalogFeature(deps))
    .use(sandbox ? sandboxCheckoutFeature(deps, sandbox.secret) : new Elysia())
}
