// Auto top-up's books (docs/console.md "Auto top-up"). Under the threshold after a settlement,
// one top-up starts: its pending ledger entry and the account's `in_flight` claim are written in
// one transaction, the claim only while none is in flight (a conditional update on the user's
// row), so across instances there is never a second. The top-up is credited or failed by the
// provider's verified webhook like a manual one (topups.ts), which also ends the claim; a failed
// charge turns auto top-up off and keeps why.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { autoTopups, ledgerEntries } from '../db/schema/index.ts'
import { base62 } from '../lib/ids.ts'

export type AutoTopupRow = typeof autoTopups.$inferSelect
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** What a claim started: the pending top-up to charge. */
export interface Claimed {
  transactionId: string
  amountMicros: bigint
  provider: string
  paymentMethod: string
}

export async function readAutoTopup(db: Pick<Db, 'select'>, userId: string): Promise<AutoTopupRow | undefined> {
  const [row] = await db.select().from(autoTopups).where(eq(autoTopups.userId, userId))
  return row
}

/**
 * Claims the user's one top-up in flight when auto top-up is on, set up and idle, and the balance
 * — read while the row is locked, so a top-up credited meanwhile is counted — is under the
 * threshold (`balance` reads through `tx` where it reads Postgres). A credit moves the live balance before it ends its claim (topups.ts), in the
 * transaction that holds this row, so a claim never follows a credit it has not seen.
 */
export async function claimTopup(db: Db, userId: string, balance: (tx: Tx) => Promise<bigint>): Promise<Claimed | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(autoTopups)
      .where(
        and(eq(autoTopups.userId, userId), eq(autoTopups.enabled, true), isNull(autoTopups.inFlight), isNotNull(autoTopups.paymentMethod)),
      )
      .for('update')
    if (!row?.paymentMethod || (await balance(tx)) >= row.thresholdMicros) return undefined
    const transactionId = `txn_${base62(20)}`
    await tx.update(autoTopups).set({ inFlight: transactionId, updatedAt: new Date() }).where(eq(autoTopups.userId, userId))
    await tx.insert(ledgerEntries).values({
      id: transactionId,
      userId,
      kind: 'topup',
      status: 'pending',
      amountMicros: row.amountMicros,
      method: row.provider,
      reference: `topup:${transactionId}`,
      meta: { auto: true },
    })
    return { transactionId, amountMicros: row.amountMicros, provider: row.provider, paymentMethod: row.paymentMethod }
  })
}

/** Marks the user under their threshold; true for the one caller that crossed it (the notice goes once). */
export async function markLow(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .update(autoTopups)
    .set({ lowSince: new Date() })
    .where(and(eq(autoTopups.userId, userId), isNull(autoTopups.lowSince)))
    .returning({ userId: autoTopups.userId })
  return rows.length > 0
}

/**
 * Inside the transaction that decides a top-up (topups.ts): ends the claim it held; a failure
 * turns auto top-up off with its reason; a credit that lifts the balance to the threshold or over
 * ends the low-balance state.
 */
export async function topupDecided(tx: Tx, entryId: string, userId: string, failure: string | null, balanceMicros?: bigint) {
  const ended = failure === null ? { inFlight: null } : { inFlight: null, enabled: false, lastError: failure }
  await tx
    .update(autoTopups)
    .set({ ...ended, updatedAt: new Date() })
    .where(and(eq(autoTopups.userId, userId), eq(autoTopups.inFlight, entryId)))
  if (balanceMicros !== undefined)
    await tx
      .update(autoTopups)
      .set({ lowSince: null })
      .where(and(eq(autoTopups.userId, userId), sql`${autoTopups.thresholdMicros} <= ${balanceMicros}`))
}

/** Records the payment method a provider saved for the user's auto top-up; false when the user has none set up. */
export async function saveMethod(db: Db, userId: string, paymentMethod: string): Promise<boolean> {
  const rows = await db
    .update(autoTopups)
    .set({ paymentMethod, lastError: null, updatedAt: new Date() })
    .where(eq(autoTopups.userId, userId))
    .returning({ userId: autoTopups.userId })
  return rows.length > 0
}
