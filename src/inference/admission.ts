// The start of every gateway call, shared by every protocol: authenticate the key, then, once
// the call's candidates are known (candidates.ts), admit it (rate window + reservation in one
// store round trip). Settlement is billing's
// (billing/settlement.ts).
import { type ApiKeyAuth, keyFromHeaders, type KeyPrincipal } from '../auth/api-keys.ts'
import { leaseFor } from '../billing/lease.ts'
import type { AccountMirror } from '../billing/mirror.ts'
import { spendKey } from '../billing/spend-period.ts'
import { usageTokens } from '../core/usage.ts'
import type { SettlingCall } from '../billing/settlement.ts'
import type { CallLife } from './call-life.ts'
import type { CatalogModel } from '../catalog/catalog.ts'
import { shuttingDown } from '../core/call-end.ts'
import { GatewayError, serviceUnavailable } from '../core/errors.ts'
import type { Usage } from '../core/usage.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import type { CallObserver } from '../observability/call-observer.ts'
import type { AdmitResult, RateInfo, Store } from '../store/types.ts'
import type { InFlight } from './inflight.ts'

export async function authenticate(auth: Pick<ApiKeyAuth, 'verify'>, headers: Headers): Promise<KeyPrincipal> {
  // Postgres unreachable and the key not cached (not even stale): 503, never a 500 or a hang.
  const principal = await auth.verify(keyFromHeaders(headers)).catch((e) => Promise.reject(serviceUnavailable(e)))
  if (!principal) throw new GatewayError('UNAUTHORIZED', 'Invalid, revoked or expired API key.')
  return principal
}

/** An admitted call: what settlement needs, plus its rate window and estimate. */
export interface Call extends SettlingCall {
  principal: KeyPrincipal
  model: CatalogModel
  estimate: Usage
  rate: RateInfo
  /** The key's token window after admission (a key with a tpm). */
  tokenRate?: RateInfo
  /** When the lease taken at admission ends (epoch ms, deps.now's clock). */
  leaseDeadlineMs: number
  /** Metrics and trace of this call. */
  obs: CallObserver
  /** How the call ends (inference/call-life.ts). */
  life: CallLife
}

export interface AdmitDeps {
  store: Store
  /** A cold account is loaded; an admit without an answer drops its mirror (docs/operations.md "Reloading a mirror"). */
  accounts: AccountMirror
  inflight: InFlight
  now: () => number
}

/** A call to admit: what it reserves was planned with its candidates (call-plan.ts). */
type Admitting = Omit<Call, 'reservedMicros' | 'rate' | 'settled' | 'leaseDeadlineMs' | 'spendKey' | 'tokensAt'> & { reserveMicros: bigint }

/** What the store checks and counts for the call: its key's windows and limits, its reservation and lease. */
function admitInput(c: Admitting, nowMs: number) {
  const p = c.principal
  return {
    userId: p.userId,
    keyId: p.keyId,
    rpm: p.rpm,
    nowMs,
    reserveMicros: c.reserveMicros,
    keyLimitMicros: p.limitMicros,
    // A limit that resets counts under its period (billing/spend-period.ts).
    spendKey: spendKey(p.keyId, p.limitMicros === null ? null : p.limitReset, nowMs),
    tpm: p.tpm,
    tokens: usageTokens(c.estimate),
    maxConcurrent: p.maxConcurrent,
    lease: leaseFor(c, nowMs),
  }
}

/** Rate windows + reservation. A rejected request reserves nothing (docs/api.md "Rate windows", "Key settings"). */
export async function admit(deps: AdmitDeps, c: Admitting): Promise<Call> {
  const nowMs = deps.now()
  const p = c.principal
  const input = admitInput(c, nowMs)
  const { reserveMicros } = input
  // Counted before the first await, so a drain that starts now waits for this call (docs/drain.md).
  if (deps.inflight.draining) throw shuttingDown()
  deps.inflight.calls++
  // The store's round trip, timed. Redis or (for a cold account) Postgres unreachable: a fast
  // 503 with Retry-After. An admit without an answer may still reserve later, so its lease is
  // ended and the account's mirror dropped after it.
  const storeAdmit = async () => {
    const t = performance.now()
    try {
      const answered = await deps.store.admit(input)
      c.obs.storeTrip('admit', t, true)
      return answered
    } catch (e) {
      c.obs.storeTrip('admit', t, false)
      deps.accounts.forget(input.userId, input.lease.id)
      throw serviceUnavailable(e)
    }
  }
  let result
  try {
    // A mirror drop of the account still waiting goes first (docs/operations.md "Settlement fallback").
    const waiting = deps.accounts.beforeAdmit(input.userId)
    if (waiting) await waiting
    result = await storeAdmit()
    if (!result.ok && result.reason === 'cold') {
      await deps.accounts.warm(p, input.spendKey, nowMs).catch((e) => Promise.reject(serviceUnavailable(e)))
      result = await storeAdmit()
    }
  } catch (e) {
    deps.inflight.callEnded()
    throw e
  }
  if (result.ok) {
    c.obs.reserve(reserveMicros)
    const admitted = { reservedMicros: reserveMicros, rate: result.rate, tokenRate: result.tokens, settled: false }
    // The request log shows the upstream attempts the observer records as they happen.
    return {
      ...c,
      ...admitted,
      attempts: c.obs.attempts,
      leaseDeadlineMs: input.lease.deadlineMs,
      spendKey: input.spendKey,
      tokensAt: p.tpm === null ? null : nowMs,
    }
  }
  deps.inflight.callEnded()
  if (result.reason === 'cold') throw serviceUnavailable(new Error('account still cold after load'))
  c.obs.refused(result.reason === 'rate' ? 'rate_limit' : result.reason)
  throw refusal(result)
}

/** The answer to a refused admission (docs/api.md "Key settings", "Rate windows"). */
function refusal(result: Exclude<AdmitResult, { ok: true } | { reason: 'cold' }>): GatewayError {
  const limited = result.reason === 'rate' || result.reason === 'tpm' || result.reason === 'concurrency'
  const headers = rateHeaders(result.rate, limited, result.tokens)
  if (result.reason === 'tpm' && result.tokens) headers['retry-after'] = headers['x-ratelimit-reset-tokens']!
  // A call in flight ends at no known time: a second is a fair wait before retrying.
  if (result.reason === 'concurrency') headers['retry-after'] = '1'
  if (result.reason === 'rate')
    return new GatewayError('RATE_LIMITED', `Rate limit of ${result.rate.limit} requests per minute exceeded for this API key.`, {
      headers,
    })
  if (result.reason === 'tpm')
    return new GatewayError('RATE_LIMITED', `Token rate limit of ${result.tokens?.limit} tokens per minute exceeded for this API key.`, {
      headers,
    })
  if (result.reason === 'concurrency')
    return new GatewayError('RATE_LIMITED', 'This API key has as many calls in flight as it may; retry when one ends.', { headers })
  if (result.reason === 'balance')
    return new GatewayError('PAYMENT_REQUIRED', 'Insufficient account balance for this request; top up your credit.', { headers })
  return new GatewayError('PAYMENT_REQUIRED', "This API key's spend limit would be exceeded by this request.", { headers })
}
