// Refunds (docs/console.md "Refunds (admin)"): an admin refunds a top-up, a usage entry, or one
// call of a usage entry, as a refund ledger entry of its own. A top-up refund debits the balance
// (money goes back to the payer); a usage refund credits it. What is refunded never exceeds the
// original — a call's refunds its cost, an entry's refunds (its calls' among them) its amount —
// and concurrent refunds of one entry collide on the reference, which counts them all.
import { and, eq, sql, type SQL } from 'drizzle-orm'
import { GatewayError } from '../core/errors.ts'
import type { Db } from '../db/client.ts'
import { ledgerEntries, requestLogs } from '../db/schema/index.ts'
import { usdToMicros } from '../lib/money.ts'
import type { Store } from '../store/types.ts'
import { applyMovement } from './accounts.ts'

/**
 * Refund entries of one ledger entry. The kind is a literal, not a parameter, so that the partial
 * index ledger_refund_of_idx (schema/ledger.ts) serves it under generic prepared plans too.
 */
export const refundsOf = (transactionId: string): SQL =>
  sql`${ledgerEntries.kind} = 'refund' and ${ledgerEntries.meta}->>'refundOf' = ${transactionId}`

interface Deps {
  db: Db
  store: Store
}

export interface Refunded {
  id: string
  /** The refunded entry (the call's usage entry for a call). */
  refundOf: string
  amount: bigint
  balance: bigint
}

/** Refunds a completed top-up or usage entry, in part or what remains of it. */
export async function refund(
  deps: Deps,
  transactionId: string,
  amountUsd: number | undefined,
  note: string | undefined,
): Promise<Refunded> {
  const orig = await refundable(deps.db, transactionId)
  const prior = await priorRefunds(deps.db, orig.id)
  return record(deps, orig, prior.n, amountOf(amountUsd, abs(orig.amountMicros) - prior.entry), { note })
}

/** Refunds one call: a credit referring to the call and its usage entry, at most what it cost less its earlier refunds. */
export async function refundCall(
  deps: Deps,
  requestId: string,
  amountUsd: number | undefined,
  note: string | undefined,
): Promise<Refunded> {
  const { db } = deps
  const [call] = await db
    .select({ cost: requestLogs.costMicros, entryId: requestLogs.ledgerEntryId, userId: requestLogs.userId })
    .from(requestLogs)
    .where(eq(requestLogs.id, requestId))
  if (!call) throw new GatewayError('NOT_FOUND', 'No such call.')
  if (call.cost <= 0n) throw new GatewayError('BAD_REQUEST', 'The call was not charged.')
  const orig = await refundable(db, call.entryId ?? (await perCallEntry(db, requestId, call.userId)))
  const prior = await priorRefunds(db, orig.id, requestId)
  const byCall = call.cost - prior.call
  const byEntry = abs(orig.amountMicros) - prior.entry
  return record(deps, orig, prior.n, amountOf(amountUsd, least(byCall, byEntry)), { requestId, note })
}

type Entry = typeof ledgerEntries.$inferSelect

const abs = (n: bigint) => (n < 0n ? -n : n)
const least = (a: bigint, b: bigint) => (a < b ? a : b)

async function refundable(db: Db, transactionId: string): Promise<Entry> {
  const [orig] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.id, transactionId))
  if (!orig) throw new GatewayError('NOT_FOUND', 'No such transaction.')
  if (orig.status !== 'completed' || (orig.kind !== 'topup' && orig.kind !== 'usage'))
    throw new GatewayError('BAD_REQUEST', 'Only completed top-ups and usage charges can be refunded.')
  return orig
}

/** A call logged before usage entries covered a batch: its own entry, found by its reference. */
async function perCallEntry(db: Db, requestId: string, userId: string): Promise<string> {
  const [e] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.reference, `usage:${requestId}`), eq(ledgerEntries.userId, userId)))
  if (!e) throw new GatewayError('NOT_FOUND', 'The call has no usage entry.')
  return e.id
}

/**
 * The entry's refunds in one read: how many (the next reference counts them, so a concurrent
 * refund read from the same state collides on it), their sum, and the sum of one call's.
 */
async function priorRefunds(db: Db, entryId: string, requestId = ''): Promise<{ n: number; entry: bigint; call: bigint }> {
  const refunded = sql`abs(${ledgerEntries.amountMicros})`
  const [r] = await db
    .select({
      n: sql<number>`count(*)::int`,
      entry: sql<string>`coalesce(sum(${refunded}), 0)::text`,
      call: sql<string>`coalesce(sum(${refunded}) filter (where ${ledgerEntries.meta}->>'requestId' = ${requestId}), 0)::text`,
    })
    .from(ledgerEntries)
    .where(refundsOf(entryId))
  return { n: r?.n ?? 0, entry: BigInt(r?.entry ?? '0'), call: BigInt(r?.call ?? '0') }
}

/** The refund's amount: what is asked, within what remains; all of it when nothing is asked. */
function amountOf(amountUsd: number | undefined, remaining: bigint): bigint {
  const amount = amountUsd === undefined ? remaining : usdToMicros(amountUsd)
  if (amount === undefined || amount <= 0n || amount > remaining)
    throw new GatewayError('BAD_REQUEST', 'The refund exceeds what remains refundable.')
  return amount
}

async function record(
  deps: Deps,
  orig: Entry,
  prior: number,
  amount: bigint,
  meta: { requestId?: string; note: string | undefined },
): Promise<Refunded> {
  const { db } = deps
  const reference = `refund:${orig.id}:${prior + 1}`
  const balance = await applyMovement(db, deps.store, {
    userId: orig.userId,
    amountMicros: orig.kind === 'topup' ? -amount : amount,
    kind: 'refund',
    method: 'admin',
    reference,
    meta: { refundOf: orig.id, ...meta },
  })
  if (balance === undefined) throw new GatewayError('CONFLICT', 'A concurrent refund of this transaction won; retry.')
  const [entry] = await db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.reference, reference))
  return { id: entry!.id, refundOf: orig.id, amount, balance }
}
