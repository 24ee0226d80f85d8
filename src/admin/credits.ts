// POST /api/admin/users/:id/credits (docs/api.md "Idempotent retries"): a signed adjustment. With
// an Idempotency-Key it is applied once per user and key: the ledger entry's reference is
// `admin:<user>:<key>`, and the entry keeps the answer it was given (meta.answer), written in the
// same transaction as the movement. A retry with the same body gets that answer again, marked
// `Idempotent-Replayed: true`; the same key with another body is a 409 that says so.
import { eq, sql } from 'drizzle-orm'
import { moveBalance, withMirroredMoves } from '../billing/accounts.ts'
import { GatewayError } from '../core/errors.ts'
import { accounts, ledgerEntries } from '../db/schema/index.ts'
import { base62 } from '../lib/ids.ts'
import { formatUsd } from '../lib/money.ts'
import type { AdminDeps } from './deps.ts'

export interface Credit {
  userId: string
  amountMicros: bigint
  note?: string
  /** The Idempotency-Key header, when sent. */
  key?: string
  /** Runs in the movement's transaction, with the balance before and after (the audit row). */
  audit?: (tx: Tx, before: bigint, after: bigint) => Promise<void>
}

/** The answer: the balance after the adjustment, USD; `replayed` when it is a retry's. */
export interface CreditAnswer {
  balance: number
  replayed: boolean
}

/** What Stripe and the IETF draft allow: a key is an opaque string of at most 255 characters. */
const MAX_KEY_LENGTH = 255

type Answer = { balance: number }
type Meta = { note?: string; answer?: Answer }

export async function applyCredit(deps: Pick<AdminDeps, 'db' | 'store'>, c: Credit): Promise<CreditAnswer> {
  if (c.key !== undefined && c.key.length > MAX_KEY_LENGTH)
    throw new GatewayError('BAD_REQUEST', `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters.`)
  const reference = c.key === undefined ? `admin:${base62(24)}` : `admin:${c.userId}:${c.key}`
  return withMirroredMoves(
    deps.db,
    deps.store,
    () => [c.userId],
    async (tx) => {
      // The account row is locked first: an unknown user is a 404 before anything is written.
      const [account] = await tx.select({ id: accounts.userId }).from(accounts).where(eq(accounts.userId, c.userId)).for('update')
      if (!account) throw new GatewayError('NOT_FOUND', 'No such user.')
      const [entry] = await tx
        .insert(ledgerEntries)
        .values({
          id: `txn_${base62(20)}`,
          userId: c.userId,
          kind: 'adjustment',
          status: 'completed',
          amountMicros: c.amountMicros,
          method: 'admin',
          reference,
          meta: c.note === undefined ? null : { note: c.note },
          completedAt: new Date(),
        })
        .onConflictDoNothing()
        .returning({ id: ledgerEntries.id })
      // The reference exists: the key was used before (a concurrent first use has committed by now).
      if (!entry) return { ...(await replay(tx, reference, c)), replayed: true }
      const balance = (await moveBalance(tx, deps.store, c.userId, c.amountMicros)) as bigint // the row is locked above
      await c.audit?.(tx, balance - c.amountMicros, balance)
      const answer: Answer = { balance: Number(formatUsd(balance)) }
      if (c.key !== undefined)
        await tx
          .update(ledgerEntries)
          .set({ meta: sql`coalesce(${ledgerEntries.meta}, '{}'::jsonb) || ${JSON.stringify({ answer })}::jsonb` })
          .where(eq(ledgerEntries.id, entry.id))
      return { ...answer, replayed: false }
    },
  )
}

type Tx = Parameters<Parameters<AdminDeps['db']['transaction']>[0]>[0]

/** The first answer for the same body; 409 for another body (or an entry that kept no answer). */
async function replay(tx: Tx, reference: string, c: Credit): Promise<Answer> {
  const [first] = await tx
    .select({ amount: ledgerEntries.amountMicros, meta: ledgerEntries.meta })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.reference, reference))
  const meta = (first?.meta ?? {}) as Meta
  if (first?.amount !== c.amountMicros || (meta.note ?? undefined) !== c.note)
    throw new GatewayError('CONFLICT', 'This Idempotency-Key was already used with a different body (amount or note); use a new key.')
  if (!meta.answer) throw new GatewayError('CONFLICT', 'This Idempotency-Key was already used; its answer was not kept.')
  return meta.answer
}
