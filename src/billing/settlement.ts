// Settlement of a gateway call: how it ended → the usage billed (bill.ts) → cost, reservation
// released, the call's record appended — once per call, in one store round trip the client does
// not wait for (tracked for shutdown). It returns what it settled (cost, usage and its source,
// and the round trip's outcome); the answer's svc and the call's observer read that, nothing
// recomputes it. A call refused after authentication is settled the same way: billed nothing,
// its record appended alone.
import type { UpstreamAttempt } from '../core/call-end.ts'
import { type Usage, usageTokens } from '../core/usage.ts'
import type { Logger } from '../lib/log.ts'
import type { Store } from '../store/types.ts'
import type { Outcome } from './bill.ts'
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

/**
 * A call refused after authentication, before admission (a body too large or invalid, an unknown
 * model, a 402 or 429): it reserved nothing and holds no lease. Settled, it is billed nothing and
 * its record is appended alone.
 */
export interface RefusedCall extends Omit<RecordedCall, 'model'> {
  /** The slug it asked for ('' when it named none): no catalog model, no price. */
  model: { id: string }
  /** Nothing was reserved: zero. */
  estimate: Usage
  /** performance.now() at receipt */
  t0: number
  settled: boolean
}

/** Whether the call was admitted (it reserved under a lease), not refused before admission. */
export const admitted = <C extends SettlingCall>(call: C | RefusedCall): call is C => 'reservedMicros' in call

/**
 * Settles once; a later call does nothing and returns undefined. An admitted call's cost,
 * reservation, lease and record go in one store round trip; a refused call's record, billed
 * nothing, is appended alone, and nothing is returned (no settlement round trip to observe).
 */
export function settle(deps: SettlementDeps, call: SettlingCall | RefusedCall, o: Outcome): Settled | undefined {
  if (call.settled) return undefined
  call.settled = true
  const leased = admitted(call)
  const cost = leased ? costMicros(o.usage, call.model.pricing) : 0n
  const record = callRecord(recorded(call), {
    ...o,
    attempts: leased ? call.attempts : undefined,
    costMicros: cost,
    latencyMs: performance.now() - call.t0,
  })
  const { userId, keyId } = call.principal
  if (!leased) {
    const appended = deps.store.appendOutbox(userId, record).catch((e) => {
      deps.log.warn('log append failed; recording it through the fallback', { requestId: call.requestId, err: String(e) })
      return deps.rescue.rescue(userId, record, false)
    })
    deps.inflight.track(appended)
    return undefined
  }
  deps.inflight.callEnded()
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
