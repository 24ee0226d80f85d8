// Dead letters for the operator (docs/operators.md "Ledger health"; docs/operations.md "Ledger
// writer"): list and inspect them, retry one through the writer's own statement (a record that
// is refused again stays, with the new error), or discard one with a note. A dead letter is not
// billed until it is retried.
import { count, eq, min } from 'drizzle-orm'
import { errorText, isRecordError } from '../../billing/dead-letters.ts'
import { writeRecords } from '../../billing/ledger-batch.ts'
import { after, cursorAt, newestFirst, page } from '../../console/http/pagination.ts'
import { GatewayError } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { ledgerDeadLetters } from '../../db/schema/index.ts'

type Row = typeof ledgerDeadLetters.$inferSelect

const view = (r: Row) => ({ id: r.id, requestId: r.requestId, error: r.error, raw: r.raw, createdAt: r.createdAt.toISOString() })

export async function listDeadLetters(db: Db, q: { limit: number; cursor?: string }) {
  const rows = await db
    .select({ row: ledgerDeadLetters, at: cursorAt(ledgerDeadLetters.createdAt) })
    .from(ledgerDeadLetters)
    .where(after(ledgerDeadLetters.createdAt, ledgerDeadLetters.id, q.cursor))
    .orderBy(newestFirst(ledgerDeadLetters.createdAt, ledgerDeadLetters.id))
    .limit(q.limit + 1)
  const p = page(
    rows.map((r) => ({ row: view(r.row), at: r.at, id: r.row.id })),
    q.limit,
  )
  return p
}

export async function deadLetter(db: Db, id: string) {
  const [row] = await db.select().from(ledgerDeadLetters).where(eq(ledgerDeadLetters.id, id))
  if (!row) throw new GatewayError('NOT_FOUND', 'No such dead letter.')
  return view(row)
}

export async function deadLetterStats(db: Db) {
  const [row] = await db.select({ n: count(), oldest: min(ledgerDeadLetters.createdAt) }).from(ledgerDeadLetters)
  return { count: Number(row?.n ?? 0), oldestAt: row?.oldest ? new Date(row.oldest).toISOString() : null }
}

/**
 * Writes the record as the ledger writer would (idempotent: a record already written changes
 * nothing) and removes the dead letter. Refused again: 409 with Postgres's reason, row kept.
 */
export async function retryDeadLetter(db: Db, id: string): Promise<{ row: ReturnType<typeof view>; written: number }> {
  const row = await deadLetter(db, id)
  let written: number
  try {
    written = await writeRecords(db, [row.raw])
  } catch (err) {
    if (!isRecordError(err)) throw err
    await db
      .update(ledgerDeadLetters)
      .set({ error: errorText(err) })
      .where(eq(ledgerDeadLetters.id, id))
    throw new GatewayError('CONFLICT', `The record was refused again: ${errorText(err)}`)
  }
  await db.delete(ledgerDeadLetters).where(eq(ledgerDeadLetters.id, id))
  return { row, written }
}

export async function discardDeadLetter(db: Db, id: string) {
  const row = await deadLetter(db, id)
  await db.delete(ledgerDeadLetters).where(eq(ledgerDeadLetters.id, id))
  return row
}
