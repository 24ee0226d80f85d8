// GET /api/wallet/account (docs/console.md "Wallet"); GET|PUT /api/wallet/auto-topup ("Auto top-up").
import { Elysia } from 'elysia'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext, sessionRequired } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { Account } from './model.ts'
import { accountSummary } from './service.ts'
import { strictBody } from '../../http/strict-body.ts'
import { AutoTopupSettings, AutoTopupView } from './auto-topup-model.ts'
import { autoTopupView, setAutoTopup } from './auto-topup.ts'

export function walletFeature(deps: ContextDeps & Pick<ConsoleDeps, 'payments' | 'autoTopup'>) {
  // Where the provider sends the user back after saving a payment method.
  const returnUrl = (req: Request, https: boolean) =>
    `${deps.config.publicUrl?.replace(/\/+$/, '') ?? `${https ? 'https' : 'http'}://${new URL(req.url).host}`}/console/topup`
  return new Elysia({ prefix: '/api/wallet' })
    .use(sessionRequired(deps))
    .use(consoleContext(deps))
    .get('/account', ({ user }) => accountSummary(deps, user.id), {
      response: { 200: Account },
      detail: {
        tags: ['wallet'],
        summary: 'Balance, reserved, available, spent this month, pending top-ups, top-up policy',
        security: SESSION_SECURITY,
      },
    })
    .get('/auto-topup', ({ user }) => autoTopupView(deps, user.id), {
      response: { 200: AutoTopupView },
      detail: { tags: ['wallet'], summary: 'Auto top-up settings and state', security: SESSION_SECURITY },
    })
    .put('/auto-topup', ({ user, body, request, client }) => setAutoTopup(deps, user, body, returnUrl(request, client.https)), {
      parse: 'json',
      ...strictBody(AutoTopupSettings),
      response: { 200: AutoTopupView },
      detail: {
        tags: ['wallet'],
        summary:
          'Set auto top-up: amount within the top-up policy (422), a configured provider (402); setupUrl when a payment method must be saved',
        security: SESSION_SECURITY,
      },
    })
}
