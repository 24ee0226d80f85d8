// The life of one gateway call, shared by every protocol: authenticate, resolve the model,
// admit (rate window + reservation in one store round trip), and settle exactly once.
import { keyFromHeaders, type KeyPrincipal } from '../auth/api-keys.ts'
import { costMicros } from '../billing/pricing.ts'
import { encodeRecord, type UsageSource } from '../billing/outbox-record.ts'
import { loadMirror } from '../billing/accounts.ts'
import { reservationMicros } from '../billing/estimate.ts'
import type { CatalogModel } from '../catalog/catalog.ts'
import { GatewayError, serviceUnavailable } from '../core/errors.ts'
import type { Usage } from '../core/usage.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { withDeadline } from '../lib/deadline.ts'
import type { CallObserver } from '../observability/call-observer.ts'
import type { RateInfo } from '../store/types.ts'
import type { InferenceDeps } from './deps.ts'
import { leaseFor } from './lease.ts'

export async function authenticate(deps: InferenceDeps, headers: Headers): Promise<KeyPrincipal> {
  // Postgres unreachable and the key not cached (not even stale): 503, never a 500 or a hang.
  const principal = await deps.auth.verify(keyFromHeaders(headers)).catch((e) => Promise.reject(serviceUnavailable(e)))
  if (!principal) throw new GatewayError('UNAUTHORIZED', 'Invalid, revoked or expired API key.')
  return principal
}

export function resolveModel(deps: InferenceDeps, slug: string): CatalogModel {
  const found = deps.catalog.lookup(slug)
  if (found.ok) return found.model
  if (found.reason === 'unknown') throw new GatewayError('MODEL_NOT_FOUND', `Model '${slug}' does not exist.`, { param: 'model' })
  throw new GatewayError('MODEL_UNAVAILABLE', `Model '${slug}' is currently unavailable.`, { param: 'model' })
}

export interface Call {
  requestId: string
  protocol: string
  stream: boolean
  principal: KeyPrincipal
  model: CatalogModel
  estimate: Usage
  reservedMicros: bigint
  rate: RateInfo
  /** performance.now() at receipt */
  t0: number
  /** epoch ms at receipt */
  at: number
  settled: boolean
  /** Metrics and trace of this call. */
  obs: CallObserver
}

/** Rate window + reservation. A rejected request reserves nothing (docs/api.md "Rate windows"). */
export async function admit(deps: InferenceDeps, c: Omit<Call, 'reservedMicros' | 'rate' | 'settled'>): Promise<Call> {
  const reserveMicros = reservationMicros(c.estimate, c.model.pricing)
  const input = {
    userId: c.principal.userId,
    keyId: c.principal.keyId,
    rpm: c.principal.rpm,
    nowMs: deps.now(),
    reserveMicros,
    keyLimitMicros: c.principal.limitMicros,
    lease: leaseFor(c, deps.now()),
  }
  // Counted before the first await, so a drain that starts now waits for this call (docs/drain.md).
  if (deps.inflight.draining)
    throw new GatewayError('SHUTTING_DOWN', 'This instance is shutting down; retry the request.', { headers: { 'retry-after': '1' } })
  deps.inflight.calls++
  // Redis or (for a cold account) Postgres unreachable: a fast 503 with Retry-After. An admit
  // without an answer may still reserve later, so the account's mirror is dropped after it.
  const storeAdmit = () =>
    timedAdmit(deps, c.obs, input).catch((e) => {
      deps.rescue.dropMirror(input.userId)
      return Promise.reject(serviceUnavailable(e))
    })
  let result
  try {
    result = await storeAdmit()
    if (!result.ok && result.reason === 'cold') {
      const load = loadMirror(deps.db, deps.store, c.principal.userId, c.principal.keyId)
      await withDeadline(load, deps.config.dbRequestTimeoutMs, 'account load').catch((e) => Promise.reject(serviceUnavailable(e)))
      result = await storeAdmit()
    }
  } catch (e) {
    deps.inflight.callEnded()
    throw e
  }
  if (result.ok) {
    c.obs.reserve(reserveMicros)
    return { ...c, reservedMicros: reserveMicros, rate: result.rate, settled: false }
  }
  deps.inflight.callEnded()
  if (result.reason === 'cold') throw serviceUnavailable(new Error('account still cold after load'))
  c.obs.refused(result.reason === 'rate' ? 'rate_limit' : result.reason)
  const headers = rateHeaders(result.rate, result.reason === 'rate')
  if (result.reason === 'rate')
    throw new GatewayError('RATE_LIMITED', `Rate limit of ${result.rate.limit} requests per minute exceeded for this API key.`, { headers })
  if (result.reason === 'balance')
    throw new GatewayError('PAYMENT_REQUIRED', 'Insufficient account balance for this request; top up your credit.', { headers })
  throw new GatewayError('PAYMENT_REQUIRED', "This API key's spend limit would be exceeded by this request.", { headers })
}

async function timedAdmit(deps: InferenceDeps, obs: CallObserver, input: Parameters<InferenceDeps['store']['admit']>[0]) {
  const t = performance.now()
  try {
    const result = await deps.store.admit(input)
    obs.storeTrip('admit', t, true)
    return result
  } catch (e) {
    obs.storeTrip('admit', t, false)
    throw e
  }
}

export interface Outcome {
  status: number
  errorCode: string | null
  gateway: string | null
  usage: Usage
  usageSource: UsageSource
}

/**
 * Settles once: cost from `usage`, reservation released, record appended — in one store round
 * trip, not awaited by the client (tracked for shutdown). Returns the cost in micro-USD.
 */
export function settle(deps: InferenceDeps, call: Call, o: Outcome): bigint {
  if (call.settled) return 0n
  call.settled = true
  deps.inflight.callEnded()
  const cost = costMicros(o.usage, call.model.pricing)
  const record = encodeRecord({
    v: 1,
    requestId: call.requestId,
    userId: call.principal.userId,
    keyId: call.principal.keyId,
    model: call.model.id,
    gateway: o.gateway,
    protocol: call.protocol,
    stream: call.stream,
    status: o.status,
    errorCode: o.errorCode,
    usage: o.usage,
    cost: cost.toString(),
    usageSource: o.usageSource,
    latencyMs: performance.now() - call.t0,
    at: call.at,
  })
  const userId = call.principal.userId
  const span = call.obs.settling(o.usage, cost, o.gateway)
  const t = performance.now()
  const p = deps.store
    .settle({ userId, keyId: call.principal.keyId, reservedMicros: call.reservedMicros, costMicros: cost, record, leaseId: call.requestId })
    .then(
      (applied) => {
        call.obs.storeTrip('settle', t, true)
        if (!applied)
          deps.log.warn('settled after its lease expired; the abandoned record stands', {
            requestId: call.requestId,
            cost: cost.toString(),
          })
      },
      (err) => {
        call.obs.storeTrip('settle', t, false)
        deps.metrics.m.settleFailures.inc()
        span.fail('SETTLE_FAILED')
        deps.log.error('settlement failed; recording it through the fallback', {
          requestId: call.requestId,
          cost: cost.toString(),
          err: String(err),
        })
        return deps.rescue.rescue(userId, record, true, call.requestId)
      },
    )
    .finally(() => span.end())
  deps.inflight.track(p)
  return cost
}

/** A call that failed before any upstream answer: nothing billed, reservation released. */
export function settleFailure(deps: InferenceDeps, call: Call, err: GatewayError, gateway: string | null): void {
  settle(deps, call, { status: err.status, errorCode: err.code, gateway, usage: ZERO, usageSource: 'none' })
}

const ZERO: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }

/** A call refused after authentication (validation, model, 402, 429) still gets its log row. */
export function logRejected(
  deps: InferenceDeps,
  r: { requestId: string; principal: KeyPrincipal; model: string; protocol: string; stream: boolean; t0: number; at: number },
  err: GatewayError,
): void {
  const record = encodeRecord({
    v: 1,
    requestId: r.requestId,
    userId: r.principal.userId,
    keyId: r.principal.keyId,
    model: r.model, // cut to 200 code points by encodeRecord
    gateway: null,
    protocol: r.protocol,
    stream: r.stream,
    status: err.status,
    errorCode: err.code,
    usage: ZERO,
    cost: '0',
    usageSource: 'none',
    latencyMs: performance.now() - r.t0,
    at: r.at,
  })
  const appended = deps.store.appendOutbox(r.principal.userId, record).catch((e) => {
    deps.log.warn('log append failed; recording it through the fallback', { requestId: r.requestId, err: String(e) })
    return deps.rescue.rescue(r.principal.userId, record, false)
  })
  deps.inflight.track(appended)
}
