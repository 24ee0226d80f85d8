// Refunds (issue: "an admin call refunds a top-up or a usage charge as a refund ledger entry").
// A top-up refund debits the balance (money goes back to the payer); a usage refund credits it.
// The total refunded never exceeds the original; concurrent refunds collide on the reference.
import { eq, sql, type SQL } from 'drizzle-orm'
import { GatewayError } from '../core/errors.ts'
import type { Db } from '../db/client.ts'
import { ledgerEntries } from '../db/schema/index.ts'
import { usdToMicros } from '../lib/money.ts'
import type { Store } from '../store/types.ts'
import { applyMovement } from './accounts.ts'

/**
 * Refund entries of one ledger entry. The kind is a literal, not a parameter, so that the partial
 * index ledger_refund_of_idx (schema/ledger.ts) serves it under generic prepared plans too.
 */
export const refundsOf = (transactionId: string): SQL =>
  sql`${ledgerEntries.kind} = 'refund' and ${ledgerEntries.meta}->>'refundOf' = ${transactionId}`

export async function refund(
  deps: { db: Db; store: Store },
  transactionId: string,
  amountUsd: number | undefined,
  note: string | undefined,
) {
  const { db } = deps
  const [orig] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.id, transactionId))
  if (!orig) throw new GatewayError('NOT_FOUND', 'No such transaction.')
  if (orig.status !== 'completed' || (orig.kind !== 'topup' && orig.kind !== 'usage'))
    throw new GatewayError('BAD_REQUEST', 'Only completed top-ups and usage charges can be refunded.')
  const prior = await db
    .select({ n: sql<number>`count(*)::int`, sum: sql<string>`coalesce(sum(abs(${ledgerEntries.amountMicros})), 0)::text` })
    .from(ledgerEntries)
    .where(refundsOf(transactionId))
  const refunded = BigInt(prior[0]?.sum ?? '0')
  const original = orig.amountMicros < 0n ? -orig.amountMicros : orig.amountMicros
  const amount = amountUsd === undefined ? original - refunded : usdToMicros(amountUsd)
  if (amount === undefined || amount <= 0n || refunded + amount > original)
    throw new GatewayError('BAD_REQUEST', 'The refund exceeds what remains refundable.')
  const signed = orig.kind === 'topup' ? -amount : amount
  const balance = await applyMovement(db, deps.store, {
    userId: orig.userId,
    amountMicros: signed,
    kind: 'refund',
    method: 'admin',
    reference: `refund:${transactionId}:${(prior[0]?.n ?? 0) + 1}`,
    meta: { refundOf: transactionId, note },
  })
  if (balance === undefined) throw new GatewayError('CONFLICT', 'A concurrent refund of this transaction won; retry.')
  const [entry] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.reference, `refund:${transactionId}:${(prior[0]?.n ?? 0) + 1}`))
  return { id: entry!.id, amount, balance }
}
