// Settlement of a gateway call: how it ended → the usage billed (bill.ts) → cost, reservation
// released, the call's record appended — once per call, in one store round trip the client does
// not wait for (tracked for shutdown). It returns what it settled (cost, usage and its source,
// and the round trip's outcome); the answer's svc and the call's observer read that, nothing
// recomputes it. A call refused after authentication still gets its record.
import { refusalFault, type UpstreamAttempt } from '../core/call-end.ts'
import type { GatewayError } from '../core/errors.ts'
import { type Usage, usageTokens } from '../core/usage.ts'
import type { Logger } from '../lib/log.ts'
import type { Store } from '../store/types.ts'
import { type Outcome, ZERO_USAGE } from './bill.ts'
import { callRecord, type RecordedCall, recorded } from './outbox-record.ts'
import { costMicros, type Pricing } from './pricing.ts'
import type { SettleRescue } from './settle-rescue.ts'

/** What settlement uses; `calls` is the process's open-call tracker (inference/inflight.ts). */
export interface SettlementDeps {
  store: Pick<Store, 'settle' | 'appendOutbox'>
  /** Where a settlement goes when the store's round trip fails (docs/operations.md). */
  rescue: Pick<SettleRescue, 'rescue'>
  log: Logger
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
  /** The call's upstream attempts, as they happen (its request log shows them). */
  attempts?: readonly UpstreamAttempt[]
  /** The candidate models, when the call had more than one (its request log records them). */
  chain?: string[]
  /** What the key's spend counted under at admission (billing/spend-period.ts); absent = the key id. */
  spendKey?: string
  /** When a key with a tpm counted the estimate's tokens (epoch ms); null or absent = no tpm. */
  tokensAt?: number | null
}

/**
 * How the store's round trip went: applied; `expired` — the lease had expired, so the abandoned
 * record stands (docs/drain.md); `rescued` — the store failed and the record went through the
 * settlement fallback (docs/operations.md "Settlement fallback").
 */
export interface StoreTrip {
  outcome: 'applied' | 'expired' | 'rescued'
  /** performance.now() when the store answered (or failed). */
  answeredAt: number
}

/** What one settlement settled. */
export interface Settled extends Outcome {
  costMicros: bigint
  /** performance.now() when the store's round trip started, and how it went. */
  tripStarted: number
  trip: Promise<StoreTrip>
}

/** Settles once; a later call does nothing and returns undefined. */
export function settle(deps: SettlementDeps, call: SettlingCall, o: Outcome): Settled | undefined {
  if (call.settled) return undefined
  call.settled = true
  deps.inflight.callEnded()
  const cost = costMicros(o.usage, call.model.pricing)
  const record = callRecord(recorded(call), {
    gateway: o.gateway,
    status: o.status,
    errorCode: o.errorCode,
    fault: o.fault,
    attempts: call.attempts ?? [],
    usage: o.usage,
    costMicros: cost,
    usageSource: o.usageSource,
    latencyMs: performance.now() - call.t0,
  })
  const { userId, keyId } = call.principal
  const tripStarted = performance.now()
  // The token window is corrected to the billed tokens (docs/api.md "Key settings").
  const tokens = call.tokensAt == null ? undefined : { nowMs: call.tokensAt, giveBack: usageTokens(call.estimate) - usageTokens(o.usage) }
  const settling = { userId, keyId, reservedMicros: call.reservedMicros, costMicros: cost, record, leaseId: call.requestId }
  const trip = deps.store.settle({ ...settling, spendKey: call.spendKey, tokens }).then(
    (applied): StoreTrip => {
      const answeredAt = performance.now()
      if (!applied) {
        deps.log.warn('settled after its lease expired; the abandoned record stands', { requestId: call.requestId, cost: cost.toString() })
        return { outcome: 'expired', answeredAt }
      }
      if (cost > 0n && deps.autoTopup) afterCharge(deps, userId)
      return { outcome: 'applied', answeredAt }
    },
    (err): Promise<StoreTrip> => {
      const answeredAt = performance.now()
      deps.log.error('settlement failed; recording it through the fallback', {
        requestId: call.requestId,
        cost: cost.toString(),
        err: String(err),
      })
      return deps.rescue.rescue(userId, record, true, call.requestId).then(() => ({ outcome: 'rescued', answeredAt }))
    },
  )
  deps.inflight.track(trip)
  return { ...o, costMicros: cost, tripStarted, trip }
}

/** Auto top-up's check, tracked like the settlement (a drain waits for it); its failure is logged. */
function afterCharge(deps: SettlementDeps, userId: string): void {
  const p = deps.autoTopup!.afterSettle(userId).catch((err) => deps.log.warn('auto top-up check failed', { userId, err: String(err) }))
  deps.inflight.track(p)
}

/** A call refused after authentication, before admission (as far as it got). */
export interface RejectedCall extends RecordedCall {
  /** performance.now() at receipt */
  t0: number
}

/** A call refused after authentication (validation, model, 402, 429) still gets its log row. */
export function logRejected(deps: SettlementDeps, r: RejectedCall, err: GatewayError): void {
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
