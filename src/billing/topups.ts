// Top-ups: a pending ledger entry at checkout, completed (credited) or failed by the payment
// provider's verified webhook. Crediting is one conditional update on status = 'pending', so
// duplicated, reordered or concurrent webhooks credit exactly once.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { accounts, ledgerEntries } from '../db/schema/index.ts'
import { base62 } from '../lib/ids.ts'
import type { Store } from '../store/types.ts'

export async function createPendingTopup(db: Db, userId: string, amountMicros: bigint, provider: string): Promise<string> {
  const id = `txn_${base62(20)}`
  await db.insert(ledgerEntries).values({ id, userId, kind: 'topup', status: 'pending', amountMicros, method: provider, reference: `topup:${id}` })
  return id
}

export async function attachCheckout(db: Db, id: string, checkout: Record<string, unknown>): Promise<void> {
  await db.update(ledgerEntries).set({ meta: checkout }).where(eq(ledgerEntries.id, id))
}

export type Settlement = { outcome: 'credited'; balance: bigint } | { outcome: 'ignored'; reason: string }

/**
 * Credits a pending top-up after the provider confirmed `paidMicros` in USD. A mismatch with
 * what was asked marks the top-up failed and credits nothing.
 */
export async function completeTopup(db: Db, store: Store, id: string, provider: string, paidMicros: bigint, currency: string, providerRef: string): Promise<Settlement> {
  const result = await db.transaction(async (tx) => {
    const [entry] = await tx.select().from(ledgerEntries).where(and(eq(ledgerEntries.id, id), eq(ledgerEntries.kind, 'topup'), eq(ledgerEntries.method, provider))).for('update')
    if (!entry) return { outcome: 'ignored' as const, reason: 'unknown top-up' }
    if (entry.status !== 'pending') return { outcome: 'ignored' as const, reason: `already ${entry.status}` }
    if (currency.toLowerCase() !== 'usd' || paidMicros !== entry.amountMicros) {
      await tx.update(ledgerEntries).set({ status: 'failed', completedAt: new Date(), meta: { ...entry.meta, failure: 'amount or currency mismatch', paidMicros: paidMicros.toString(), currency } }).where(eq(ledgerEntries.id, id))
      return { outcome: 'ignored' as const, reason: 'amount or currency mismatch' }
    }
    await tx.update(ledgerEntries).set({ status: 'completed', completedAt: new Date(), meta: { ...entry.meta, providerRef } }).where(eq(ledgerEntries.id, id))
    const [acct] = await tx
      .update(accounts)
      .set({ balanceMicros: sql`${accounts.balanceMicros} + ${entry.amountMicros}`, updatedAt: new Date() })
      .where(eq(accounts.userId, entry.userId))
      .returning({ balance: accounts.balanceMicros })
    return { outcome: 'credited' as const, balance: acct!.balance, userId: entry.userId, amount: entry.amountMicros }
  })
  if (result.outcome === 'credited') {
    await store.adjustBalance(result.userId, result.amount)
    return { outcome: 'credited', balance: result.balance }
  }
  return result
}

export async function failTopup(db: Db, id: string, provider: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(ledgerEntries)
    .set({ status: 'failed', completedAt: new Date(), meta: sql`coalesce(${ledgerEntries.meta}, '{}'::jsonb) || ${JSON.stringify({ failure: reason })}::jsonb` })
    .where(and(eq(ledgerEntries.id, id), eq(ledgerEntries.kind, 'topup'), eq(ledgerEntries.method, provider), eq(ledgerEntries.status, 'pending')))
    .returning({ id: ledgerEntries.id })
  return rows.length > 0
}
