// The periodic half of lease expiry (docs/drain.md): every instance releases expired leases
// (the store's release is atomic per lease, so instances never release one twice). A crashed
// instance therefore blocks its users' reservations for at most deadline + one interval.
import type { Logger } from '../lib/log.ts'
import type { Store } from '../store/types.ts'

export const LEASE_SWEEP_MS = 1_000
const PER_SWEEP = 500

export function startLeaseSweep(store: Store, log: Logger, now: () => number, everyMs = LEASE_SWEEP_MS): () => void {
  let busy = false
  const timer = setInterval(async () => {
    if (busy) return
    busy = true
    try {
      const released = await store.sweepLeases(now(), PER_SWEEP)
      if (released > 0) log.warn('expired leases released as abandoned', { count: released })
    } catch (err) {
      log.error('lease sweep failed', { err: String(err) })
    } finally {
      busy = false
    }
  }, everyMs)
  return () => clearInterval(timer)
}
