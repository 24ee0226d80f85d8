// The `sandbox` provider (development and the demo; on only with SANDBOX_PAYMENTS_SECRET): a
// local checkout page whose Pay button completes the top-up through an HMAC-signed webhook —
// the same verified path a real provider's webhook takes.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { PaymentProvider } from './provider.ts'

const TOLERANCE_S = 300

export function signSandboxEvent(secret: string, body: string, nowS = Math.floor(Date.now() / 1000)): string {
  return `t=${nowS},v1=${createHmac('sha256', secret).update(`${nowS}.${body}`).digest('hex')}`
}

export function sandboxProvider(cfg: { secret: string }): PaymentProvider {
  return {
    name: 'sandbox',
    async createCheckout(req) {
      return { sessionId: `sbx_${req.transactionId}`, url: `${req.origin}/api/payments/sandbox/${req.transactionId}` }
    },
    async parseWebhook(rawBody, headers) {
      const sig = headers.get('x-sandbox-signature') ?? ''
      const t = /(?:^|,)t=(\d+)/.exec(sig)?.[1]
      const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(sig)?.[1]
      if (!t || !v1) throw new Error('missing signature')
      if (Math.abs(Date.now() / 1000 - Number(t)) > TOLERANCE_S) throw new Error('stale signature')
      const expected = createHmac('sha256', cfg.secret).update(`${t}.${rawBody}`).digest()
      if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) throw new Error('bad signature')
      const event = JSON.parse(rawBody) as { type: string; transactionId: string; amountCents: number; currency: string }
      if (event.type === 'payment.succeeded')
        return { kind: 'paid', transactionId: event.transactionId, amountCents: event.amountCents, currency: event.currency, providerRef: `sbx_${event.transactionId}` }
      if (event.type === 'payment.failed') return { kind: 'failed', transactionId: event.transactionId, reason: 'payment failed' }
      return { kind: 'ignored' }
    },
  }
}
