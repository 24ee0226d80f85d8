// POST /api/webhooks/:provider (docs/console.md "Top-ups": Stripe's is /api/webhooks/stripe, Stripe-Signature
// header). The body is read raw — the signature covers its exact bytes. Not IP-limited and not
// same-origin checked: the caller is the provider, and the signature is the authentication.
import { Elysia, t } from 'elysia'
import { GatewayError } from '../../core/errors.ts'
import { parseJsonText, readBodyText } from '../../http/body.ts'
import type { ConsoleDeps } from '../deps.ts'
import { receiveWebhook } from './service.ts'

export function webhooksFeature(deps: Pick<ConsoleDeps, 'db' | 'store' | 'log' | 'payments' | 'config'>) {
  return new Elysia({ prefix: '/api/webhooks' }).post(
    '/:provider',
    async ({ params, request }) => {
      const provider = deps.payments.get(params.provider)
      if (!provider) throw new GatewayError('NOT_FOUND', 'No such webhook.')
      // The body limit and the safe-text rule hold here too (a NUL in an event id would fail in
      // Postgres after the signature passed); the signature still covers the exact bytes.
      const raw = await readBodyText(request, deps.config.maxBodyBytes)
      parseJsonText(raw)
      return receiveWebhook(deps, provider, raw, request.headers)
    },
    {
      parse: 'none',
      params: t.Object({ provider: t.String({ maxLength: 50 }) }),
      detail: { tags: ['payments'], summary: "A payment provider's signed event (stripe: Stripe-Signature; sandbox: x-sandbox-signature)" },
    },
  )
}
