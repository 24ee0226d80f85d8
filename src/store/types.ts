// The hot-path store: per-key rate window, credit reservations, the hot balance mirror and the
// settlement outbox. Two implementations with one contract (test/store/contract.ts): Redis with
// Lua scripts (shared by every instance) and an in-process one (embedded default).

export interface AdmitInput {
  userId: string
  keyId: string
  /** Requests allowed in one 60 s window. */
  rpm: number
  nowMs: number
  reserveMicros: bigint
  /** The key's spend limit (of the period of `spendKey`); null = none. */
  keyLimitMicros: bigint | null
  /**
   * What the key's spend and reservations count under (billing/spend-period.ts): the key id, or
   * the key id and the start of its limit's period. Absent = the key id.
   */
  spendKey?: string
  /** Tokens per minute (docs/api.md "Key settings"); null or absent = none. */
  tpm?: number | null
  /** Tokens counted against `tpm`: the prompt estimate plus the output cap. */
  tokens?: number
  /** Calls of the key in flight at once, counted by their leases; null or absent = none. */
  maxConcurrent?: number | null
  /** The reservation as a lease (docs/drain.md): released as abandoned once its deadline passes. */
  lease?: Lease
}

/** One admitted request's hold on its reservation. */
export interface Lease {
  /** The request id: one lease per admitted request. */
  id: string
  /** Epoch ms after which the reservation is released by the sweep unless renewed or settled. */
  deadlineMs: number
  /** What an abandoned request is billed (≤ the reservation) and its outbox record. */
  abandonCostMicros: bigint
  abandonRecord: string
}

export interface RateInfo {
  limit: number
  remaining: number
  /** Milliseconds until the current window ends. */
  resetMs: number
}

/** The token window of a key with a tpm; absent without one. */
export type TokenRate = { tokens?: RateInfo }

export type AdmitResult =
  | ({ ok: true; rate: RateInfo } & TokenRate)
  | ({ ok: false; reason: 'rate' | 'tpm' | 'concurrency'; rate: RateInfo } & TokenRate)
  | ({ ok: false; reason: 'balance' | 'key_limit'; rate: RateInfo } & TokenRate)
  /** The account or key is not mirrored yet: load it from Postgres (loadAccount) and retry. */
  | { ok: false; reason: 'cold' }

export interface SettleInput {
  userId: string
  keyId: string
  reservedMicros: bigint
  costMicros: bigint
  /** Serialized OutboxRecord, appended atomically with the balance movement. */
  record: string
  /** The lease taken at admission; when it was already released as abandoned nothing moves. */
  leaseId?: string
  /** As at admission; absent = the key id. */
  spendKey?: string
  /** The token window the admission counted in and the tokens to give back (reserved − billed; may be negative). */
  tokens?: { nowMs: number; giveBack: number }
}

export interface OutboxEntry {
  /** Opaque position used to acknowledge. */
  id: string
  shard: number
  record: string
}

/** A settled call as an outbox record bills it (store/outbox-call.ts). */
export interface OutboxCall {
  requestId: string
  keyId: string
  costMicros: bigint
}

export interface AccountState {
  balanceMicros: bigint
  reservedMicros: bigint
}

export interface Store {
  readonly kind: 'redis' | 'memory'
  /** ONE round trip: rate window check + credit reservation, atomically. */
  admit(input: AdmitInput): Promise<AdmitResult>
  /**
   * The account's records in the outbox that carry a cost, read in pages (not atomically), and
   * the position the read reached: what a reload must check against Postgres (billing/mirror.ts).
   */
  outboxCalls(userId: string): Promise<{ calls: OutboxCall[]; through: string }>
  /**
   * Mirror an account unless already present (set-if-absent: the balance, and the key's spend on
   * its own), made whole with what Postgres does not hold yet (docs/operations.md "Reloading a
   * mirror"): `balanceMicros` and `keySpentMicros` are Postgres's less the unwritten calls the
   * caller found up to `outboxThrough` (from outboxCalls; absent = none checked); every record of
   * the account appended after it is taken off too, and a new mirror holds the reservations of
   * the account's live leases again, so their settlements release what is held.
   */
  loadAccount(
    userId: string,
    keyId: string,
    balanceMicros: bigint,
    keySpentMicros: bigint,
    outboxThrough?: string,
    /** The field the key's spend counts under (AdmitInput.spendKey); absent = the key id. */
    spendKey?: string,
  ): Promise<void>
  /**
   * ONE round trip: end the lease, release the reservation, apply the real cost, append to the
   * outbox. Returns false (and moves nothing) when the lease had already expired and been
   * released as abandoned: the abandoned record stands, so nothing is billed twice.
   */
  settle(input: SettleInput): Promise<boolean>
  /** Push a live lease's deadline out (long streams); false when it no longer exists. */
  renewLease(userId: string, leaseId: string, deadlineMs: number): Promise<boolean>
  /** Release up to `max` leases whose deadline is before nowMs as abandoned; returns how many. */
  sweepLeases(nowMs: number, max: number): Promise<number>
  /** Append a record without moving money (rejected calls' request logs). */
  appendOutbox(userId: string, record: string): Promise<void>
  /** Credit or debit the hot balance for a movement already committed to Postgres. */
  adjustBalance(userId: string, deltaMicros: bigint): Promise<void>
  account(userId: string): Promise<AccountState | undefined>
  /** The ids of the account's live leases: calls admitted and not yet settled, swept or ended. */
  accountLeases(userId: string): Promise<string[]>
  /**
   * End these leases of the account without moving money, and drop its mirror with them (it may
   * hold their reservations): their calls reached Postgres another way (the settlement
   * fallback), so a reload does not hold them again and no sweep bills them. None: nothing moves.
   */
  endLeases(userId: string, leaseIds: readonly string[]): Promise<void>
  /**
   * Drop the mirror of an account so the next call reloads it from Postgres; with `leaseId`, end
   * that lease too (its record reached Postgres another way; a sweep must not release it again).
   */
  forgetAccount(userId: string, leaseId?: string): Promise<void>
  /** Outbox consumption for the ledger writer (at-least-once; the writer is idempotent). */
  readOutbox(consumer: string, max: number, blockMs: number): Promise<OutboxEntry[]>
  ackOutbox(entries: OutboxEntry[]): Promise<void>
  /** Entries delivered to `consumer` and not yet acknowledged (re-read after a failed read). */
  ownPendingOutbox(consumer: string, max: number): Promise<OutboxEntry[]>
  /** Entries handed to a consumer that died: re-deliver those idle longer than minIdleMs. */
  reclaimOutbox(consumer: string, minIdleMs: number, max: number): Promise<OutboxEntry[]>
  /** Recreate the outbox's consumer groups (after NOGROUP: Redis restarted without its data). */
  repairOutbox(): Promise<void>
  /** A fixed-window counter for `bucket` (e.g. "api:<ip>"): admits up to `limit` per window. */
  hit(bucket: string, limit: number, windowMs: number, nowMs: number): Promise<{ ok: boolean; rate: RateInfo }>
  /** Outbox records not yet acknowledged, and the append time (epoch ms) of the oldest (metrics). */
  outboxStats(): Promise<{ depth: number; oldestMs: number | null }>
  ping(): Promise<void>
  /**
   * Redis: whether every server keeps an append-only file (store/append-only.ts), undefined when
   * it cannot be read; the in-process store: undefined.
   */
  appendOnly(): Promise<boolean | undefined>
  close(): Promise<void>
}

/** Shard an account lives on: all its keys share the hash tag {s<n>} (Redis Cluster safe). */
export function shardOf(userId: string, shards: number): number {
  let h = 0x811c9dc5
  for (let i = 0; i < userId.length; i++) {
    h ^= userId.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h % shards
}

export const WINDOW_MS = 60_000
/** How long a window's counter is kept: its window and a second more, for clocks a little apart. */
export const WINDOW_TTL_MS = WINDOW_MS + 1_000

export function windowOf(nowMs: number, windowMs = WINDOW_MS): { index: number; resetMs: number } {
  const index = Math.floor(nowMs / windowMs)
  return { index, resetMs: (index + 1) * windowMs - nowMs }
}
