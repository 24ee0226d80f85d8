// An admission's answer from the windows' counts (lua/admit.lua's status codes; the in-process
// store answers the same): the request window, and the token window of a key with a tpm.
import { type AdmitInput, type AdmitResult, type RateInfo, windowOf } from './types.ts'

export const ADMITTED = 1
export const RATE_LIMITED = 0
export const COLD = -1
export const BALANCE_SHORT = -2
export const KEY_LIMIT_SHORT = -3
export const OVER_TPM = -4
export const OVER_CONCURRENCY = -5

const REFUSALS = {
  [RATE_LIMITED]: 'rate',
  [BALANCE_SHORT]: 'balance',
  [KEY_LIMIT_SHORT]: 'key_limit',
  [OVER_TPM]: 'tpm',
  [OVER_CONCURRENCY]: 'concurrency',
} as const

/** `requests` and `tokens`: the windows' counts after the call when admitted, before it when refused. */
export function admitResult(input: AdmitInput, status: number, requests: number, tokens: number): AdmitResult {
  if (status === COLD) return { ok: false, reason: 'cold' }
  const { resetMs } = windowOf(input.nowMs)
  const rate: RateInfo = {
    limit: input.rpm,
    remaining: status === RATE_LIMITED ? 0 : Math.max(0, input.rpm - requests),
    resetMs,
  }
  const tpm = input.tpm ?? null
  const tokenRate = tpm === null ? {} : { tokens: { limit: tpm, remaining: Math.max(0, tpm - tokens), resetMs } }
  if (status === ADMITTED) return { ok: true, rate, ...tokenRate }
  const reason = REFUSALS[status as keyof typeof REFUSALS]
  if (!reason) throw new Error(`admit: unknown status ${status}`)
  return { ok: false, reason, rate, ...tokenRate }
}
