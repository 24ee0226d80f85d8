// The sandbox provider's checkout page (development and the demo; mounted only with
// SANDBOX_PAYMENTS_SECRET). The signed-in owner of a pending sandbox top-up sees it and can pay
// or cancel; either button signs an event and runs it through the verified webhook path.
import { Elysia, t } from 'elysia'
import { and, eq } from 'drizzle-orm'
import { GatewayError } from '../../core/errors.ts'
import { ledgerEntries } from '../../db/schema/index.ts'
import { formatUsd } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext, sessionRequired } from '../http/context.ts'
import { sandboxEvent, signSandboxEvent, SANDBOX_SIGNATURE, type SandboxEvent } from '../payments/sandbox.ts'
import { receiveWebhook } from './service.ts'

const html = (body: string) =>
  new Response(
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sandbox checkout</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem;margin:.25rem 0}</style><h1>Tollgate sandbox checkout</h1>${body}`,
    {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    },
  )

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function sandboxCheckoutFeature(deps: ContextDeps & Pick<ConsoleDeps, 'log' | 'payments'>, secret: string) {
  const provider = deps.payments.get('sandbox')!
  const topup = async (id: string, userId: string) => {
    const [e] = await deps.db
      .select()
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.id, id),
          eq(ledgerEntries.userId, userId),
          eq(ledgerEntries.kind, 'topup'),
          eq(ledgerEntries.method, 'sandbox'),
        ),
      )
    if (!e) throw new GatewayError('NOT_FOUND', 'No such checkout.')
    return e
  }
  const page = (e: typeof ledgerEntries.$inferSelect) => {
    const id = escapeHtml(e.id)
    const amount = formatUsd(e.amountMicros).slice(0, -6)
    // The way back is the console's return page (docs/console-ui.md), as a real provider's is.
    const back = `<p><a href="/console/topup/return?topup=${id}">Back to the console</a></p>`
    if (e.status !== 'pending')
      return html(`<p>Top-up <code>${id}</code> of $${amount} is <strong>${escapeHtml(e.status)}</strong>.</p>${back}`)
    return html(
      `<p>Top-up <code>${id}</code>: <strong>$${amount}</strong></p>` +
        `<form method="post" action="/api/payments/sandbox/${id}/pay"><button>Pay $${amount} (sandbox)</button></form>` +
        `<form method="post" action="/api/payments/sandbox/${id}/cancel"><button>Cancel</button></form>` +
        back,
    )
  }
  const send = async (e: typeof ledgerEntries.$inferSelect, type: SandboxEvent['type']) => {
    const body = JSON.stringify(sandboxEvent(type, e.id, Number(e.amountMicros / 10_000n)))
    await receiveWebhook(deps, provider, body, new Headers({ [SANDBOX_SIGNATURE]: signSandboxEvent(secret, body) }))
    return page(await topup(e.id, e.userId))
  }
  const params = t.Object({ id: t.String({ maxLength: 100 }) })
  const detail = { tags: ['payments'], hide: true }
  return new Elysia({ prefix: '/api/payments/sandbox' })
    .use(sessionRequired(deps))
    .use(consoleContext(deps))
    .get('/:id', async ({ user, params }) => page(await topup(params.id, user.id)), { params, detail })
    .post('/:id/pay', async ({ user, params }) => send(await topup(params.id, user.id), 'payment.succeeded'), { params, detail })
    .post('/:id/cancel', async ({ user, params }) => send(await topup(params.id, user.id), 'payment.failed'), { params, detail })
}
