// GET /api/wallet/account (docs/console.md "Wallet").
import { Elysia } from 'elysia'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext, sessionRequired } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { Account } from './model.ts'
import { accountSummary } from './service.ts'

export function walletFeature(deps: ContextDeps & Pick<ConsoleDeps, 'payments'>) {
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
}
