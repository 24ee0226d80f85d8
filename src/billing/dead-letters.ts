// Where the ledger writer puts a record Postgres refuses (docs/operations.md "Ledger writer"):
// telling a record's own fault apart from an outage, and keeping the record for an operator.
import type { Db } from '../db/client.ts'
import { sqlState } from '../db/sql-state.ts'
import { ledgerDeadLetters } from '../db/schema/index.ts'
import { base62 } from '../lib/ids.ts'
import { escapeForText, safeText } from '../lib/safe-text.ts'

/**
 * True when Postgres refused the data itself (classes 22 data exception, 23 integrity, 42
 * syntax or undefined object): the same records would fail again, so they are isolated. Any
 * other failure (connection lost, timeout, shutdown, serialization) is an outage: the batch is
 * retried whole, and nothing is dead-lettered for it.
 */
export function isRecordError(err: unknown): boolean {
  const state = sqlState(err)
  return state !== undefined && ['22', '23', '42'].includes(state.slice(0, 2))
}

/** The most specific message of an error chain, for the log and the dead-letter row. */
export function errorText(err: unknown): string {
  const cause = (err as { cause?: unknown })?.cause
  const inner = cause instanceof Error ? cause : err
  const state = sqlState(err)
  return safeText(`${state ? `${state} ` : ''}${inner instanceof Error ? inner.message : String(inner)}`, 2_000)
}

export async function insertDeadLetter(db: Db, raw: string, requestId: string | undefined, error: string): Promise<void> {
  await db
    .insert(ledgerDeadLetters)
    .values({
      id: `dl_${base62(20)}`,
      requestId: requestId === undefined ? null : safeText(requestId, 200),
      raw: escapeForText(raw),
      error: escapeForText(error),
    })
    .onConflictDoNothing()
}
