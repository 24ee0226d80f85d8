// Reservations are leases (docs/drain.md): how long an admitted request may hold its reservation
// without settling, and what it is billed if that deadline passes (its instance died or lost the
// store). The store releases an expired lease and appends the abandoned record below.
import { billFor, NOTHING_DELIVERED } from '../billing/bill.ts'
import { callRecord, recorded } from '../billing/outbox-record.ts'
import { costMicros } from '../billing/pricing.ts'
import type { Route } from '../core/gateway.ts'
import type { Logger } from '../lib/log.ts'
import type { Lease, Store } from '../store/types.ts'
import type { Call } from './admission.ts'

/** Slack for the work around the upstream calls (admission, settlement, a loaded machine). */
export const LEASE_MARGIN_MS = 5_000

/** Until the first upstream byte: every route's timeout in turn (failover), plus the margin. */
export const firstByteLeaseMs = (routes: readonly Route[]): number =>
  routes.reduce((sum, r) => sum + r.gateway.timeoutMs, 0) + LEASE_MARGIN_MS

/**
 * While a stream runs it is cut once either side is idle longer than its limit (the upstream's
 * gateway timeout, the client idle timeout), so a live stream renews its lease to the longer
 * limit plus the margin, every third of that.
 */
export const streamLeaseMs = (gatewayTimeoutMs: number, clientIdleMs: number): number =>
  Math.max(gatewayTimeoutMs, clientIdleMs) + LEASE_MARGIN_MS

export function leaseFor(c: Omit<Call, 'reservedMicros' | 'rate' | 'settled' | 'leaseDeadlineMs' | 'life'>, nowMs: number): Lease {
  // Nothing is known of what was delivered: billed as a call cut before its first byte (docs/drain.md).
  const { usage } = billFor(c.estimate, { kind: 'abandoned' }, NOTHING_DELIVERED)
  const cost = costMicros(usage, c.model.pricing)
  const deadlineMs = nowMs + firstByteLeaseMs(c.model.routes)
  const abandonRecord = callRecord(recorded(c), {
    gateway: null,
    status: 500,
    errorCode: 'ABANDONED',
    // The instance that held the call stopped answering for it: Tollgate's own failure.
    fault: 'tollgate',
    usage,
    costMicros: cost,
    usageSource: 'estimate',
    latencyMs: deadlineMs - c.at,
  })
  return { id: c.requestId, deadlineMs, abandonCostMicros: cost, abandonRecord }
}

/**
 * Keeps a live stream's lease ahead of its deadline until the returned stop is called: renewed
 * to `leaseMs` every third of it, so at each renewal at least two thirds of it are left. The
 * lease taken at admission counts: the first renewal comes when it has two thirds of `leaseMs`
 * left (at once if less), so a short stream costs no renewal round trip.
 */
export function holdLease(
  deps: { store: Pick<Store, 'renewLease'>; log: Logger; now: () => number },
  call: Call,
  leaseMs: number,
): () => void {
  const every = Math.max(1, Math.floor(leaseMs / 3))
  const renew = () => {
    deps.store
      .renewLease(call.principal.userId, call.requestId, deps.now() + leaseMs)
      .then((held) => {
        if (!held && !call.settled)
          deps.log.warn('lease lost before settlement; the abandoned record stands', { requestId: call.requestId })
      })
      .catch((err) => deps.log.warn('lease renewal failed', { requestId: call.requestId, err: String(err) }))
  }
  const firstIn = call.leaseDeadlineMs - deps.now() - (leaseMs - every)
  let timer: Timer
  const renewing = () => {
    renew()
    timer = setInterval(renew, every)
  }
  if (firstIn <= 0) renewing()
  else timer = setTimeout(renewing, firstIn)
  return () => clearTimeout(timer) // clears the interval too
}
