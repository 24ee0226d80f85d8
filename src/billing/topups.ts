// Top-ups (docs/api.md "Top-ups"): a `pending` topup ledger entry at checkout; only the
// payment provider's verified webhook moves it to `completed` (crediting the balance in the same
// transaction) or `failed`. Exactly once under duplicated, reordered and concurrent webhooks:
// - the event id is recorded first (payment_events primary key): a redelivery stops there;
// - the entry is locked (FOR UPDATE) and changed only while `pending`: a second event for the
//   same payment (completed + async_payment_succeeded) finds it completed and moves nothing.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { ledgerEntries, paymentEvents } from '../db/schema/index.ts'
import { base62 } from '../lib/ids.ts'
import type { Store } from '../store/types.ts'
import { moveBalance, withMirroredMoves } from './accounts.ts'
import { topupDecided } from './auto-topup.ts'

export async function createPendingTopup(db: Db, userId: string, amountMicros: bigint, provider: string): Promise<string> {
  const id = `txn_${base62(20)}`
  await db
    .insert(ledgerEntries)
    .values({ id, userId, kind: 'topup', status: 'pending', amountMicros, method: provider, reference: `topup:${id}` })
  return id
}

/** Remembers the provider's checkout id (merged: a fast webhook may have written meta first). */
export async function attachCheckout(db: Db, id: string, checkoutSession: string): Promise<void> {
  await db
    .update(ledgerEntries)
    .set({ meta: sql`coalesce(${ledgerEntries.meta}, '{}'::jsonb) || ${JSON.stringify({ checkoutSession })}::jsonb` })
    .where(eq(ledgerEntries.id, id))
}

/** A verified provider event, as billing needs it (see console/payments/provider.ts). */
export type TopupEvent = {
  provider: string
  eventId: string
  type: string
  action:
    | { kind: 'paid'; transactionId: string; sessionId: string; paidMicros: bigint; currency: string }
    | { kind: 'failed'; transactionId: string; sessionId: string; reason: string }
    | { kind: 'ignored'; transactionId: string | null; reason: string }
}

export type TopupOutcome = 'credited' | 'failed' | 'duplicate' | `ignored: ${string}`

export async function applyTopupEvent(db: Db, store: Store, e: TopupEvent): Promise<TopupOutcome> {
  let creditedUser: string | undefined
  const result = await withMirroredMoves(
    db,
    store,
    () => (creditedUser ? [creditedUser] : []),
    async (tx) => {
      const txnId = e.action.transactionId || null
      const [fresh] = await tx
        .insert(paymentEvents)
        .values({ provider: e.provider, eventId: e.eventId, type: e.type, transactionId: txnId, outcome: 'processing' })
        .onConflictDoNothing()
        .returning({ eventId: paymentEvents.eventId })
      if (!fresh) return { outcome: 'duplicate' as const }
      const decided = await decide(tx, store, e)
      if (decided.outcome === 'credited') creditedUser = decided.userId
      await tx
        .update(paymentEvents)
        .set({ outcome: decided.outcome })
        .where(and(eq(paymentEvents.provider, e.provider), eq(paymentEvents.eventId, e.eventId)))
      return decided
    },
  )
  return result.outcome
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
type Decision = { outcome: 'credited'; userId: string; amount: bigint } | { outcome: 'failed' | `ignored: ${string}` }

async function decide(tx: Tx, store: Store, e: TopupEvent): Promise<Decision> {
  const a = e.action
  if (a.kind === 'ignored') return { outcome: `ignored: ${a.reason}` }
  const [entry] = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.id, a.transactionId), eq(ledgerEntries.kind, 'topup'), eq(ledgerEntries.method, e.provider)))
    .for('update')
  if (!entry) return { outcome: 'ignored: unknown top-up' }
  if (entry.status !== 'pending') return { outcome: `ignored: already ${entry.status}` }
  const meta = entry.meta ?? {}
  if (typeof meta.checkoutSession === 'string' && meta.checkoutSession !== a.sessionId)
    return { outcome: 'ignored: another checkout session' }
  const now = new Date()
  if (a.kind === 'failed') {
    await tx
      .update(ledgerEntries)
      .set({ status: 'failed', completedAt: now, meta: { ...meta, failure: a.reason } })
      .where(eq(ledgerEntries.id, entry.id))
    await topupDecided(tx, entry.id, entry.userId, a.reason)
    return { outcome: 'failed' }
  }
  if (a.currency.toLowerCase() !== 'usd' || a.paidMicros !== entry.amountMicros) {
    // Paid, but not what was asked: nothing is credited; the entry says why, for an operator.
    const failure = `paid ${a.paidMicros} micro-${a.currency.toUpperCase() || '?'} for a top-up of ${entry.amountMicros} micro-USD`
    await tx
      .update(ledgerEntries)
      .set({ status: 'failed', completedAt: now, meta: { ...meta, failure } })
      .where(eq(ledgerEntries.id, entry.id))
    await topupDecided(tx, entry.id, entry.userId, failure)
    return { outcome: 'failed' }
  }
  await tx.update(ledgerEntries).set({ status: 'completed', completedAt: now }).where(eq(ledgerEntries.id, entry.id))
  const balance = await moveBalance(tx, store, entry.userId, entry.amountMicros)
  await topupDecided(tx, entry.id, entry.userId, null, balance)
  return { outcome: 'credited', userId: entry.userId, amount: entry.amountMicros }
}

/** Fails a pending top-up outside any webhook (the checkout could not be opened, a charge was declined at once). */
export async function failTopup(db: Db, id: string, reason: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await failPending(tx, id, reason)
    for (const r of rows) await topupDecided(tx, r.id, r.userId, reason)
    return rows.length > 0
  })
}

function failPending(tx: Tx, id: string, reason: string) {
  return tx
    .update(ledgerEntries)
    .set({
      status: 'failed',
      completedAt: new Date(),
      meta: sql`coalesce(${ledgerEntries.meta}, '{}'::jsonb) || ${JSON.stringify({ failure: reason })}::jsonb`,
    })
    .where(and(eq(ledgerEntries.id, id), eq(ledgerEntries.kind, 'topup'), eq(ledgerEntries.status, 'pending')))
    .returning({ id: ledgerEntries.id, userId: ledgerEntries.userId })
}
