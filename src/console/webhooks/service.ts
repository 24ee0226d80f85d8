// A provider's webhook: verify the signature over the raw body (forged or stale → 400, nothing
// recorded), then apply the event to its top-up exactly once (billing/topups.ts), or record the
// payment method it saved for auto top-up (billing/auto-topup.ts; saving twice is harmless).
import { applyTopupEvent, type TopupEvent, type TopupOutcome } from '../../billing/topups.ts'
import { GatewayError } from '../../core/errors.ts'
import type { ConsoleDeps } from '../deps.ts'
import type { PaymentAction, PaymentEvent, PaymentProvider } from '../payments/provider.ts'
import { saveMethod } from '../../billing/auto-topup.ts'

/** The actions that concern a top-up. */
type TopupAction = Exclude<PaymentAction, { kind: 'method_saved' }>

export async function receiveWebhook(
  deps: Pick<ConsoleDeps, 'db' | 'store' | 'log'>,
  provider: PaymentProvider,
  rawBody: string,
  headers: Headers,
): Promise<{ received: true; outcome: TopupOutcome | 'method saved' }> {
  let event: PaymentEvent
  try {
    event = await provider.verifyWebhook(rawBody, headers)
  } catch (err) {
    deps.log.warn('webhook refused', { provider: provider.name, err: String(err) })
    throw new GatewayError('BAD_REQUEST', 'Webhook signature verification failed.')
  }
  const a = event.action
  if (a.kind === 'method_saved') {
    const saved = await saveMethod(deps.db, a.userId, a.paymentMethod)
    deps.log.info('webhook applied', { provider: provider.name, event: event.id, type: event.type, saved })
    return { received: true, outcome: 'method saved' }
  }
  const outcome = await applyTopupEvent(deps.db, deps.store, topupEvent(provider.name, { ...event, action: a }))
  const level = outcome === 'credited' || outcome === 'failed' || outcome === 'duplicate' ? 'info' : 'warn'
  deps.log[level]('webhook applied', {
    provider: provider.name,
    event: event.id,
    type: event.type,
    transactionId: a.transactionId,
    outcome,
  })
  return { received: true, outcome }
}

/** Provider cents → ledger micro-USD; a non-integer amount can never match a top-up. */
export function topupEvent(provider: string, e: PaymentEvent & { action: TopupAction }): TopupEvent {
  const a = e.action
  const action: TopupEvent['action'] =
    a.kind === 'paid' ? { ...a, paidMicros: Number.isSafeInteger(a.amountCents) ? BigInt(a.amountCents) * 10_000n : -1n } : a
  return { provider, eventId: e.id, type: e.type, action }
}
