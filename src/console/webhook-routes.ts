// POST /api/webhooks/<provider>: verified provider events credit or fail pending top-ups; and the
// sandbox provider's local checkout page.
import { Elysia } from 'elysia'
import { completeTopup, failTopup } from '../billing/topups.ts'
import { consoleError } from '../http/console-error.ts'
import type { InferenceDeps } from '../inference/deps.ts'
import { signSandboxEvent } from './payments/sandbox.ts'
import type { PaymentProvider } from './payments/provider.ts'
import { and, eq } from 'drizzle-orm'
import { ledgerEntries } from '../db/schema/index.ts'
import { formatUsd } from '../lib/money.ts'

export async function handleWebhook(deps: InferenceDeps, provider: PaymentProvider, rawBody: string, headers: Headers): Promise<Response> {
  let outcome
  try {
    outcome = await provider.parseWebhook(rawBody, headers)
  } catch (err) {
    deps.log.warn('webhook refused', { provider: provider.name, err: String(err) })
    return consoleError(400, 'BAD_REQUEST', 'Webhook signature verification failed.')
  }
  if (outcome.kind === 'paid') {
    const result = await completeTopup(deps.db, deps.store, outcome.transactionId, provider.name, BigInt(Math.round(outcome.amountCents)) * 10_000n, outcome.currency, outcome.providerRef)
    if (result.outcome === 'ignored') deps.log.info('webhook ignored', { provider: provider.name, transactionId: outcome.transactionId, reason: result.reason })
  } else if (outcome.kind === 'failed') await failTopup(deps.db, outcome.transactionId, provider.name, outcome.reason)
  return Response.json({ received: true })
}

export function webhookRoutes(deps: InferenceDeps, providers: Map<string, PaymentProvider>, sandboxSecret: string | undefined) {
  const app = new Elysia({ prefix: '/api' }).post(
    '/webhooks/:provider',
    async ({ params, request }) => {
      const provider = providers.get(params.provider)
      if (!provider) return consoleError(404, 'NOT_FOUND', 'No such webhook.')
      return handleWebhook(deps, provider, await request.text(), request.headers)
    },
    { parse: 'none' },
  )
  const sandbox = providers.get('sandbox')
  if (!sandbox || !sandboxSecret) return app
  const pending = async (id: string) => {
    const [e] = await deps.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.id, id), eq(ledgerEntries.method, 'sandbox'), eq(ledgerEntries.kind, 'topup')))
    return e
  }
  return app
    .get('/payments/sandbox/:id', async ({ params }) => {
      const e = await pending(params.id)
      if (!e) return consoleError(404, 'NOT_FOUND', 'No such checkout.')
      const amount = formatUsd(e.amountMicros).slice(0, -6)
      const body =
        e.status === 'pending'
          ? `<p>Top-up <code>${e.id}</code>: <strong>$${amount}</strong></p><form method="post" action="/api/payments/sandbox/${e.id}/pay"><button>Pay $${amount} (sandbox)</button></form>`
          : `<p>Top-up <code>${e.id}</code> is ${e.status}.</p>`
      return new Response(`<!doctype html><meta charset="utf-8"><title>Tollgate sandbox checkout</title><h1>Sandbox checkout</h1>${body}`, { headers: { 'content-type': 'text/html; charset=utf-8' } })
    })
    .post('/payments/sandbox/:id/pay', async ({ params }) => {
      const e = await pending(params.id)
      if (!e) return consoleError(404, 'NOT_FOUND', 'No such checkout.')
      const event = JSON.stringify({ type: 'payment.succeeded', transactionId: e.id, amountCents: Number(e.amountMicros / 10_000n), currency: 'usd' })
      const headers = new Headers({ 'x-sandbox-signature': signSandboxEvent(sandboxSecret, event) })
      await handleWebhook(deps, sandbox, event, headers)
      const [after] = await deps.db.select({ status: ledgerEntries.status }).from(ledgerEntries).where(eq(ledgerEntries.id, e.id))
      return new Response(`<!doctype html><meta charset="utf-8"><h1>Sandbox checkout</h1><p>Top-up ${e.id} is ${after?.status}.</p>`, { headers: { 'content-type': 'text/html; charset=utf-8' } })
    })
}
