// Key layout. Every key of one account carries the same hash tag {s<n>}, so each Lua script
// touches one hash slot (Redis Cluster safe) and the outbox of that shard sits beside it.

export interface KeySpace {
  prefix: string
  shards: number
}

/** The account hash's field of a key's spend and reservations together (spendKey: billing/spend-period.ts). */
export const keyField = (spendKey: string) => `key:${spendKey}`
export const accountKey = (ks: KeySpace, shard: number, userId: string) => `${ks.prefix}{s${shard}}:acct:${userId}`
export const windowKey = (ks: KeySpace, shard: number, keyId: string, window: number) => `${ks.prefix}{s${shard}}:rl:${keyId}:${window}`
/** Tokens counted in a key's minute window (tpm). */
export const tokenWindowKey = (ks: KeySpace, shard: number, keyId: string, window: number) =>
  `${ks.prefix}{s${shard}}:tpm:${keyId}:${window}`
/** The lease ids of a key's calls in flight (maxConcurrent). */
export const inFlightKey = (ks: KeySpace, shard: number, keyId: string) => `${ks.prefix}{s${shard}}:conc:${keyId}`
export const outboxKey = (ks: KeySpace, shard: number) => `${ks.prefix}{s${shard}}:outbox`
export const counterKey = (ks: KeySpace, bucket: string, window: number) => `${ks.prefix}{c:${bucket}}:${window}`
/** Lease deadlines (sorted set: request id → deadline ms) and lease data (hash) per shard. */
export const leasesKey = (ks: KeySpace, shard: number) => `${ks.prefix}{s${shard}}:leases`
export const leaseDataKey = (ks: KeySpace, shard: number) => `${ks.prefix}{s${shard}}:lease`
/**
 * The leases of a shard released without a settlement (as abandoned, or ended with their mirror),
 * so a late settlement of one moves nothing: sorted set, lease id → release time (epoch ms), each
 * kept ABANDONED_MARK_MS (lease.ts). One key per shard: a settlement names no key of its own for it.
 */
export const releasedKey = (ks: KeySpace, shard: number) => `${ks.prefix}{s${shard}}:released`
