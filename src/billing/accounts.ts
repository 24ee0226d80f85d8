// Account movements outside the request path (admin credits, top-ups, refunds): each is a
// ledger entry and a balance update in one Postgres transaction, mirrored to the store while
// that transaction still holds the account row. Loading a cold mirror (mirror.ts) reads the row
// FOR SHARE and writes the mirror before releasing it. So a load and a movement are ordered by
// the row lock: either the load sees the movement, or the movement finds the mirror and adjusts
// it — never both, never neither.
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { accounts, ledgerEntries, users, type LedgerKind } from '../db/schema/index.ts'
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

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Moves an account's balance inside `tx` and mirrors the move to the store (see above). */
export async function moveBalance(tx: Tx, store: Store, userId: string, deltaMicros: bigint): Promise<bigint | undefined> {
  const [row] = await tx
    .update(accounts)
    .set({ balanceMicros: sql`${accounts.balanceMicros} + ${deltaMicros}`, updatedAt: new Date() })
    .where(eq(accounts.userId, userId))
    .returning({ balance: accounts.balanceMicros })
  if (row) await store.adjustBalance(userId, deltaMicros)
  return row?.balance
}

/**
 * A Postgres transaction whose balance moves are mirrored to the store. Should the commit fail
 * after a mirror moved, the mirror is dropped and reloads from Postgres on next use.
 */
export async function withMirroredMoves<T>(db: Db, store: Store, userIds: () => string[], fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(fn)
  } catch (err) {
    await Promise.all(userIds().map((u) => store.forgetAccount(u).catch(() => {})))
    throw err
  }
}

/** Records a completed movement; returns the new balance, or undefined if the reference existed. */
export async function applyMovement(db: Db, store: Store, m: Movement): Promise<bigint | undefined> {
  return withMirroredMoves(
    db,
    store,
    () => [m.userId],
    async (tx) => {
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
      return moveBalance(tx, store, m.userId, m.amountMicros)
    },
  )
}

/** The hot balance (store) when mirrored, else Postgres; reserved from the store. */
export async function accountView(db: Pick<Db, 'select'>, store: Store, userId: string): Promise<{ balance: bigint; reserved: bigint }> {
  const hot = await store.account(userId)
  if (hot) return { balance: hot.balanceMicros, reserved: hot.reservedMicros }
  const [acct] = await db.select({ balance: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, userId))
  return { balance: acct?.balance ?? 0n, reserved: 0n }
}
