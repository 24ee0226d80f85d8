// Account movements outside the request path (admin credits, top-ups, refunds): each is a
// ledger entry and a balance update in one Postgres transaction, then mirrored to the store.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { accounts, apiKeys, ledgerEntries, users, type LedgerKind } from '../db/schema/index.ts'
import { base62 } from '../lib/ids.ts'
import type { Store } from '../store/types.ts'

export const newUserId = () => `usr_${base62(20)}`

export async function createUser(db: Db, email: string, passwordHash: string | null): Promise<{ id: string; email: string }> {
  const id = newUserId()
  await db.transaction(async (tx) => {
    await tx.insert(users).values({ id, email, passwordHash })
    await tx.insert(accounts).values({ userId: id })
  })
  return { id, email }
}

export interface Movement {
  userId: string
  amountMicros: bigint
  kind: LedgerKind
  method: string
  /** Unique: a repeated reference moves nothing (idempotency). */
  reference: string
  meta?: Record<string, unknown>
}

/** Records a completed movement; returns the new balance, or undefined if the reference existed. */
export async function applyMovement(db: Db, store: Store, m: Movement): Promise<bigint | undefined> {
  const balance = await db.transaction(async (tx) => {
    const [entry] = await tx
      .insert(ledgerEntries)
      .values({
        id: `txn_${base62(20)}`,
        userId: m.userId,
        kind: m.kind,
        status: 'completed',
        amountMicros: m.amountMicros,
        method: m.method,
        reference: m.reference,
        meta: m.meta ?? null,
        completedAt: new Date(),
      })
      .onConflictDoNothing()
      .returning({ id: ledgerEntries.id })
    if (!entry) return undefined
    const [row] = await tx
      .update(accounts)
      .set({ balanceMicros: sql`${accounts.balanceMicros} + ${m.amountMicros}`, updatedAt: new Date() })
      .where(eq(accounts.userId, m.userId))
      .returning({ balance: accounts.balanceMicros })
    return row?.balance
  })
  if (balance !== undefined) await store.adjustBalance(m.userId, m.amountMicros)
  return balance
}

/** What the store needs to mirror an account cold: Postgres balance and the key's spend. */
export async function readAccountMirror(db: Db, userId: string, keyId: string): Promise<{ balance: bigint; keySpent: bigint }> {
  const [acct] = await db.select({ balance: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, userId))
  const [key] = await db
    .select({ spent: apiKeys.spentMicros })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
  return { balance: acct?.balance ?? 0n, keySpent: key?.spent ?? 0n }
}

/** The hot balance (store) when mirrored, else Postgres; reserved from the store. */
export async function accountView(db: Db, store: Store, userId: string): Promise<{ balance: bigint; reserved: bigint }> {
  const hot = await store.account(userId)
  if (hot) return { balance: hot.balanceMicros, reserved: hot.reservedMicros }
  const [acct] = await db.select({ balance: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, userId))
  return { balance: acct?.balance ?? 0n, reserved: 0n }
}
