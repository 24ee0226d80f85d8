// POST /api/wallet/topup (docs/console.md "Top-ups": answers { transactionId, checkoutUrl, … }).
import { Elysia } from 'elysia'
import { strictBody } from '../../http/strict-body.ts'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext, sessionRequired } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { TopupRequest, TopupStarted } from './model.ts'
import { startTopup } from './service.ts'

export function topupFeature(deps: ContextDeps & Pick<ConsoleDeps, 'payments' | 'log'>) {
  // Where the payer comes back to: PUBLIC_URL, else this host under the scheme the client used.
  const origin = (req: Request, https: boolean) =>
    deps.config.publicUrl?.replace(/\/+$/, '') ?? `${https ? 'https' : 'http'}://${new URL(req.url).host}`
  return new Elysia({ prefix: '/api/wallet' })
    .use(sessionRequired(deps))
    .use(consoleContext(deps))
    .post(
      '/topup',
      async ({ user, body, request, client, set }) => {
        const started = await startTopup(deps, user, body, origin(request, client.https))
        set.status = 201
        return started
      },
      {
        parse: 'json',
        ...strictBody(TopupRequest),
        response: { 201: TopupStarted },
        detail: {
          tags: ['wallet'],
          security: SESSION_SECURITY,
          summary: 'Start a top-up: a pending transaction and the checkout URL (400 outside the policy, 402 for an unconfigured provider)',
        },
      },
    )
}
