// The `sandbox` provider, for development and the demo (on only with SANDBOX_PAYMENTS_SECRET):
// the checkout is a local page (sandbox-checkout.ts) whose buttons send an HMAC-SHA256-signed
// event through the same verified webhook path a real provider's takes. Events can also be
// posted to /api/webhooks/sandbox by anything holding the secret. Auto top-up charges always
// succeed: the charge is a signed event handed to the same webhook path at once.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { base62 } from '../../lib/ids.ts'
import type { PaymentProvider } from './provider.ts'

const TOLERANCE_S = 300
export const SANDBOX_SIGNATURE = 'x-sandbox-signature'

export interface SandboxEvent {
  id: string
  type: 'payment.succeeded' | 'payment.failed'
  transactionId: string
  amountCents: number
  currency: string
}

export const sandboxEvent = (type: SandboxEvent['type'], transactionId: string, amountCents: number): SandboxEvent => ({
  id: `sbx_evt_${base62(20)}`,
  type,
  transactionId,
  amountCents,
  currency: 'usd',
})

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, the shape of Stripe's header. */
export function signSandboxEvent(secret: string, body: string, nowS = Math.floor(Date.now() / 1000)): string {
  return `t=${nowS},v1=${createHmac('sha256', secret).update(`${nowS}.${body}`).digest('hex')}`
}

export function sandboxProvider(cfg: { secret: string }): PaymentProvider {
  return {
    name: 'sandbox',
    async createCheckout(req) {
      return { sessionId: `sbx_${req.transactionId}`, url: `${req.origin}/api/payments/sandbox/${req.transactionId}` }
    },
    // Nothing to save: the sandbox charges always succeed, through a signed event delivered at once.
    async setupAutoCharge() {
      return { paymentMethod: 'sandbox' }
    },
    async chargeSaved(req) {
      const body = JSON.stringify(sandboxEvent('payment.succeeded', req.transactionId, req.amountCents))
      return {
        sessionId: `sbx_${req.transactionId}`,
        delivery: { body, headers: new Headers({ [SANDBOX_SIGNATURE]: signSandboxEvent(cfg.secret, body) }) },
      }
    },
    async verifyWebhook(rawBody, headers) {
      const sig = headers.get(SANDBOX_SIGNATURE) ?? ''
      const t = /(?:^|,)t=(\d{1,12})(?:,|$)/.exec(sig)?.[1]
      const v1 = /(?:^|,)v1=([0-9a-f]{64})(?:,|$)/.exec(sig)?.[1]
      if (!t || !v1) throw new Error('missing signature')
      if (Math.abs(Date.now() / 1000 - Number(t)) > TOLERANCE_S) throw new Error('signature outside the tolerance')
      const expected = createHmac('sha256', cfg.secret).update(`${t}.${rawBody}`).digest()
      if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) throw new Error('bad signature')
      const e = JSON.parse(rawBody) as Partial<SandboxEvent>
      if (typeof e.id !== 'string' || typeof e.transactionId !== 'string') throw new Error('malformed event')
      const sessionId = `sbx_${e.transactionId}`
      if (e.type === 'payment.succeeded')
        return {
          id: e.id,
          type: e.type,
          action: {
            kind: 'paid',
            transactionId: e.transactionId,
            sessionId,
            amountCents: Number(e.amountCents),
            currency: String(e.currency),
          },
        }
      if (e.type === 'payment.failed')
        return { id: e.id, type: e.type, action: { kind: 'failed', transactionId: e.transactionId, sessionId, reason: 'payment failed' } }
      return {
        id: e.id,
        type: String(e.type),
        action: { kind: 'ignored', transactionId: e.transactionId, reason: `unhandled ${String(e.type)}` },
      }
    },
  }
}
