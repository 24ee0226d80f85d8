// The operator's low-balance webhook (docs/console.md "Auto top-up"): when a user's balance
// crosses under their threshold, one POST of `{ type: "balance.low", userId, balance, threshold,
// at }` (USD numbers) to LOW_BALANCE_WEBHOOK_URL, signed as `x-tollgate-signature: t=<unix
// seconds>,v1=<hex HMAC-SHA256 of "t.body">` with LOW_BALANCE_WEBHOOK_SECRET. Best effort: a
// failed delivery is logged, never retried, and changes nothing else.
import { createHmac } from 'node:crypto'
import type { Logger } from '../../lib/log.ts'
import { formatUsd } from '../../lib/money.ts'

export const LOW_BALANCE_SIGNATURE = 'x-tollgate-signature'
const TIMEOUT_MS = 5_000

export function signBody(secret: string, body: string, nowS: number): string {
  return `t=${nowS},v1=${createHmac('sha256', secret).update(`${nowS}.${body}`).digest('hex')}`
}

export interface LowBalance {
  userId: string
  balanceMicros: bigint
  thresholdMicros: bigint
}

export async function notifyLowBalance(hook: { url: string; secret: string }, log: Logger, n: LowBalance, nowMs: number): Promise<void> {
  const body = JSON.stringify({
    type: 'balance.low',
    userId: n.userId,
    balance: Number(formatUsd(n.balanceMicros)),
    threshold: Number(formatUsd(n.thresholdMicros)),
    at: new Date(nowMs).toISOString(),
  })
  const headers = { 'content-type': 'application/json', [LOW_BALANCE_SIGNATURE]: signBody(hook.secret, body, Math.floor(nowMs / 1000)) }
  try {
    const res = await fetch(hook.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) })
    if (!res.ok) log.warn('low-balance webhook answered an error', { status: res.status, userId: n.userId })
  } catch (err) {
    log.warn('low-balance webhook failed', { userId: n.userId, err: String(err) })
  }
}
