// Loading an account's hot mirror (docs/operations.md "Reloading a mirror"). Postgres holds the
// written books; the outbox may still hold settled calls the ledger writer has not written. A
// load made of Postgres alone would let the account spend their cost again, so the load takes
// off every call of the account that is in the outbox and not yet in Postgres — a call is in
// Postgres when its request log is: the writer inserts the log, the usage entry that bills it
// and the balance in one statement (ledger-batch.ts). It holds the account's row FOR SHARE
// throughout: no writer can commit a call of the account meanwhile (the same statement moves
// the balance), so "in Postgres" cannot change under it, and movements are ordered against it
// (accounts.ts).
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { accounts, apiKeys, requestLogs } from '../db/schema/index.ts'
import { withDeadline } from '../lib/deadline.ts'
import type { OutboxCall, Store } from '../store/types.ts'
import { periodSpent } from './period-spend.ts'
import type { SettleRescue } from './settle-rescue.ts'
import { type LimitReset, spendPeriod } from './spend-period.ts'

const IDS_PER_QUERY = 1_000
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** What Postgres does not hold yet of `calls` (each request once): their cost, and the part of it billed to `keyId`. */
export function unwrittenCost(calls: readonly OutboxCall[], written: ReadonlySet<string>, keyId: string): { account: bigint; key: bigint } {
  const seen = new Set<string>()
  let account = 0n
  let key = 0n
  for (const c of calls) {
    if (written.has(c.requestId) || seen.has(c.requestId)) continue
    seen.add(c.requestId)
    account += c.costMicros
    if (c.keyId === keyId) key += c.costMicros
  }
  return { account, key }
}

/** The key whose spend is mirrored: with a limit that resets, its spend counts from the period's start. */
export interface MirroredKey {
  userId: string
  keyId: string
  limitReset?: LimitReset | null
}

/**
 * Mirrors a cold account (its balance, the key's spend under `spendKey`) into the store, under
 * the row lock. A key whose limit resets is loaded with its usage since the period's start; an
 * unwritten call of the key counts in whichever period it was made (a conservative bound).
 */
export async function loadMirror(db: Db, store: Store, k: MirroredKey, spendKey = k.keyId, nowMs = Date.now()): Promise<void> {
  const { userId, keyId } = k
  await db.transaction(async (tx) => {
    const [acct] = await tx.select({ balance: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, userId)).for('share')
    const [key] =
      k.limitReset && spendKey !== keyId
        ? [{ spent: (await periodSpent(tx, userId, [keyId], new Date(spendPeriod(k.limitReset, nowMs).startMs))).get(keyId) ?? 0n }]
        : await tx
            .select({ spent: apiKeys.spentMicros })
            .from(apiKeys)
            .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    const { calls, through } = await store.outboxCalls(userId)
    const written = new Set<string>()
    const ids = [...new Set(calls.map((c) => c.requestId))]
    // In slices: a backlog (Postgres was down) can hold more calls than a statement takes parameters.
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const rows = await tx
        .select({ id: requestLogs.id })
        .from(requestLogs)
        .where(and(eq(requestLogs.userId, userId), inArray(requestLogs.id, ids.slice(i, i + IDS_PER_QUERY))))
      for (const r of rows) written.add(r.id)
    }
    const unwritten = unwrittenCost(calls, written, keyId)
    await endSettledLeases(tx, store, userId)
    const balance = (acct?.balance ?? 0n) - unwritten.account
    await store.loadAccount(userId, keyId, balance, (key?.spent ?? 0n) + unwritten.key, through, spendKey)
  })
}

/**
 * A live lease whose call is already in Postgres was settled through the fallback, which has yet
 * to end it (its store round trip failed: Redis was down, and its mirror drop waits to be
 * retried). A new mirror would hold its reservation again though the call is billed, refusing a
 * call the balance covers until that drop runs; so it is ended here with the mirror that may hold
 * it, under the row lock (no call of the account reaches Postgres meanwhile), before the load
 * holds the live leases again (docs/operations.md "Reloading a mirror").
 */
async function endSettledLeases(tx: Tx, store: Store, userId: string): Promise<void> {
  const live = await store.accountLeases(userId)
  if (live.length === 0) return
  const settled: string[] = []
  for (let i = 0; i < live.length; i += IDS_PER_QUERY) {
    const rows = await tx
      .select({ id: requestLogs.id })
      .from(requestLogs)
      .where(and(eq(requestLogs.userId, userId), inArray(requestLogs.id, live.slice(i, i + IDS_PER_QUERY))))
    for (const r of rows) settled.push(r.id)
  }
  await store.endLeases(userId, settled)
}

/** Mirror loads under way, per store and account key: see loadMirrorOnce. */
const loading = new WeakMap<Store, Map<string, Promise<void>>>()

/**
 * loadMirror, once at a time per account and key spend: the calls that find them cold together
 * share one load (docs/operations.md "Bursts on a cold key"). Each load reads the account's
 * outbox and, for a new balance, every live lease of its shard, so a burst of a new key loading
 * once per call would be quadratic.
 */
export function loadMirrorOnce(db: Db, store: Store, k: MirroredKey, spendKey = k.keyId, nowMs = Date.now()): Promise<void> {
  let byAccount = loading.get(store)
  if (!byAccount) loading.set(store, (byAccount = new Map()))
  const id = `${k.userId}\n${spendKey}`
  const running = byAccount.get(id)
  if (running) return running
  const loads = byAccount
  const started = loadMirror(db, store, k, spendKey, nowMs).finally(() => loads.delete(id))
  loads.set(id, started)
  return started
}

/** The account mirror as admission uses it (docs/operations.md "Reloading a mirror"); built once in runtime.ts. */
export interface AccountMirror {
  /** Loads a cold account into the store (one load for concurrent callers), within the database deadline. */
  warm(k: MirroredKey, spendKey: string, nowMs: number): Promise<void>
  /** After an admit without an answer (which may still reserve later): the call's lease is ended and the mirror dropped after it. */
  forget(userId: string, leaseId: string): void
  /** A mirror drop of the account the settlement fallback still has waiting, run before its next admission; undefined when none waits. */
  beforeAdmit(userId: string): Promise<void> | undefined
}

export function accountMirror(
  db: Db,
  store: Store,
  rescue: Pick<SettleRescue, 'dropMirror' | 'beforeAdmit'>,
  timeoutMs: number,
): AccountMirror {
  return {
    warm: (k, spendKey, nowMs) => withDeadline(loadMirrorOnce(db, store, k, spendKey, nowMs), timeoutMs, 'account load'),
    forget: (userId, leaseId) => rescue.dropMirror(userId, leaseId),
    beforeAdmit: (userId) => rescue.beforeAdmit(userId),
  }
}
