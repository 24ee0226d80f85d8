// Settlement of a gateway call: how it ended → the usage billed (bill.ts) → cost, reservation
// released, the call's record appended — once per call, in one store round trip the client does
// not wait for (tracked for shutdown). A call refused after authentication still gets its record.
import { type EndCause, type Fault, faultOf, refusalFault } from '../core/call-end.ts'
import type { GatewayError } from '../core/errors.ts'
import { type Usage, usageTokens } from '../core/usage.ts'
import type { Logger } from '../lib/log.ts'
import type { CallObserver } from '../observability/call-observer.ts'
import type { Metrics } from '../observability/telemetry.ts'
import type { Store } from '../store/types.ts'
import { billFor, type CallTally, ZERO_USAGE } from './bill.ts'
import { callRecord, type RecordedCall, recorded, type UsageSource } from './outbox-record.ts'
import { costMicros, type Pricing } from './pricing.ts'
import type { SettleRescue } from './settle-rescue.ts'

/** What settlement uses; `calls` is the process's open-call tracker (inference/inflight.ts). */
export interface SettlementDeps {
  store: Pick<Store, 'settle' | 'appendOutbox'>
  /** Where a settlement goes when the store's round trip fails (docs/operations.md). */
  rescue: Pick<SettleRescue, 'rescue'>
  log: Logger
  metrics: Pick<Metrics, 'm'>
  inflight: { callEnded(): void; track(p: Promise<unknown>): void }
  /** Auto top-up and the low-balance notice, after a settlement that charged (docs/console.md "Auto top-up"). */
  autoTopup?: { afterSettle(userId: string): Promise<void> }
}

/** An admitted call as settlement sees it. */
export interface SettlingCall {
  requestId: string
  protocol: string
  stream: boolean
  principal: { userId: string; keyId: string }
  model: { id: string; pricing: Pricing }
  /** The usage reserved at admission (docs/api.md "Reservations"). */
  estimate: Usage
  reservedMicros: bigint
  /** performance.now() at receipt */
  t0: number
  /** epoch ms at receipt */
  at: number
  settled: boolean
  obs: Pick<CallObserver, 'settling' | 'storeTrip' | 'attempts'>
  /** The candidate models, when the call had more than one (its request log records them). */
  chain?: string[]
  /** What the key's spend counted under at admission (billing/spend-period.ts); absent = the key id. */
  spendKey?: string
  /** When a key with a tpm counted the estimate's tokens (epoch ms); null or absent = no tpm. */
  tokensAt?: number | null
}

export interface Outcome {
  status: number
  errorCode: string | null
  /** Whose failure ended the call (core/call-end.ts faultOf); what the reports count as an error. */
  fault: Fault | null
  gateway: string | null
  usage: Usage
  usageSource: UsageSource
}

/** Settles once; later calls do nothing and return 0. Returns the cost in micro-USD. */
export function settle(deps: SettlementDeps, call: SettlingCall, o: Outcome): bigint {
  if (call.settled) return 0n
  call.settled = true
  deps.inflight.callEnded()
  const cost = costMicros(o.usage, call.model.pricing)
  const record = callRecord(recorded(call), {
    gateway: o.gateway,
    status: o.status,
    errorCode: o.errorCode,
    fault: o.fault,
    attempts: call.obs.attempts,
    usage: o.usage,
    costMicros: cost,
    usageSource: o.usageSource,
    latencyMs: performance.now() - call.t0,
  })
  const { userId, keyId } = call.principal
  const span = call.obs.settling(o.usage, cost, o.gateway)
  const t = performance.now()
  // The token window is corrected to the billed tokens (docs/api.md "Key settings").
  const tokens = call.tokensAt == null ? undefined : { nowMs: call.tokensAt, giveBack: usageTokens(call.estimate) - usageTokens(o.usage) }
  const settling = { userId, keyId, reservedMicros: call.reservedMicros, costMicros: cost, record, leaseId: call.requestId }
  const p = deps.store
    .settle({ ...settling, spendKey: call.spendKey, tokens })
    .then(
      (applied) => {
        call.obs.storeTrip('settle', t, true)
        if (!applied)
          deps.log.warn('settled after its lease expired; the abandoned record stands', {
            requestId: call.requestId,
            cost: cost.toString(),
          })
        else if (cost > 0n && deps.autoTopup) afterCharge(deps, userId)
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

/** Auto top-up's check, tracked like the settlement (a drain waits for it); its failure is logged. */
function afterCharge(deps: SettlementDeps, userId: string): void {
  const p = deps.autoTopup!.afterSettle(userId).catch((err) => deps.log.warn('auto top-up check failed', { userId, err: String(err) }))
  deps.inflight.track(p)
}

/**
 * Settles a call as it ended: the billing rule's usage, and the log's status and code for the end.
 * Returns the cost in micro-USD (0 when it was already settled).
 */
export function settleEnd(deps: SettlementDeps, call: SettlingCall, end: EndCause, tally: CallTally, gateway: string | null): bigint {
  const billed = billFor(call.estimate, end, tally)
  return settle(deps, call, { ...endStatus(end), gateway, usage: billed.usage, usageSource: billed.source })
}

/** The request log's status, error code and fault for an end (docs/api.md "What a call is billed"). */
export function endStatus(end: EndCause): { status: number; errorCode: string | null; fault: Fault | null } {
  return { ...endCode(end), fault: faultOf(end) }
}

function endCode(end: EndCause): { status: number; errorCode: string | null } {
  switch (end.kind) {
    case 'completed':
      return { status: 200, errorCode: null }
    case 'upstream_failed':
      // After the first byte the client had a 200; the log says the stream failed.
      return { status: end.afterFirstByte ? 502 : end.error.status, errorCode: end.error.code }
    case 'refused':
      return { status: end.error.status, errorCode: end.error.code }
    case 'client_left':
      return { status: 499, errorCode: 'CLIENT_CLOSED' }
    case 'deadline':
      return { status: 499, errorCode: 'CLIENT_IDLE' }
    case 'drain':
      return { status: 503, errorCode: 'SHUTTING_DOWN' }
  }
}

/** A call refused after authentication, before admission (as far as it got). */
export interface RejectedCall extends RecordedCall {
  /** performance.now() at receipt */
  t0: number
}

/** A call refused after authentication (validation, model, 402, 429) still gets its log row. */
export function logRejected(deps: Omit<SettlementDeps, 'metrics'>, r: RejectedCall, err: GatewayError): void {
  const record = callRecord(r, {
    gateway: null,
    status: err.status,
    errorCode: err.code,
    fault: refusalFault(err),
    usage: ZERO_USAGE,
    costMicros: 0n,
    usageSource: 'none',
    latencyMs: performance.now() - r.t0,
  })
  const appended = deps.store.appendOutbox(r.principal.userId, record).catch((e) => {
    deps.log.warn('log append failed; recording it through the fallback', { requestId: r.requestId, err: String(e) })
    return deps.rescue.rescue(r.principal.userId, record, false)
  })
  deps.inflight.track(appended)
}
