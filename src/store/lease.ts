// Reservations are leases (docs/drain.md): what a store keeps per admitted request so that an
// expired one can be released and recorded as abandoned without the instance that admitted it.
import type { AdmitInput, Lease } from './types.ts'

/** How long a released lease is remembered, so a late settlement of it moves nothing. */
export const ABANDONED_MARK_MS = 24 * 3600_000

/**
 * The lease as one string (Redis hash value): "userId␉spendKey␉reserve␉abandon cost␉record".
 * Ids never contain a tab and JSON escapes it, so the first four tabs split it unambiguously.
 */
export const leaseData = (input: Pick<AdmitInput, 'userId' | 'keyId' | 'reserveMicros' | 'spendKey'>, lease: Lease): string =>
  [
    input.userId,
    input.spendKey ?? input.keyId,
    input.reserveMicros.toString(),
    lease.abandonCostMicros.toString(),
    lease.abandonRecord,
  ].join('\t')
