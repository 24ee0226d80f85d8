// The money invariants every fault test ends with (docs/operations.md): Postgres balance == credit
// − Σ completed ledger entries == credit − Σ what the answered calls cost; each answered call has
// exactly one request log of its cost, naming the usage entry that billed it, and each usage
// entry is exactly the sum of the calls naming it (docs/api.md "Ledger"); nothing is left reserved.
import { expect } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '../../src/db/client.ts'
import { ledgerEntries, requestLogs } from '../../src/db/schema/index.ts'
import type { GatewayInstance, TestGateway } from './gateway.ts'
import { until } from './until.ts'

/** Books of one user after settlement: exact, with one usage entry per billed request id. */
export async function expectExactBooks(
  gw: TestGateway,
  userId: string,
  creditMicros: bigint,
  billed: { requestId: string; cost: bigint }[],
) {
  const total = billed.reduce((s, b) => s + b.cost, 0n)
  expect(await gw.books(userId)).toEqual({ balance: creditMicros - total, ledgerSum: creditMicros - total })
  const db = gw.runtime.deps.db
  const calls = await billedCalls(
    db,
    billed.map((b) => b.requestId),
  )
  expect(calls.map((c) => c.id).sort()).toEqual(billed.map((b) => b.requestId).sort())
  for (const b of billed) {
    const c = calls.find((l) => l.id === b.requestId)!
    expect(c.cost).toBe(b.cost)
    expect(c.userId).toBe(userId)
    // A call that cost something names its entry; one that cost nothing names none.
    expect(c.entryId === null).toBe(b.cost === 0n)
  }
  await expectUsageCoversCalls(db, userId)
}

/** Each request id's log (one row per id, or the test fails): its cost and the entry that billed it. */
export async function billedCalls(db: Db, ids: string[]): Promise<{ id: string; userId: string; cost: bigint; entryId: string | null }[]> {
  if (ids.length === 0) return []
  const rows = await db
    .select({ id: requestLogs.id, userId: requestLogs.userId, cost: requestLogs.costMicros, entryId: requestLogs.ledgerEntryId })
    .from(requestLogs)
    .where(inArray(requestLogs.id, ids))
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
  return rows
}

/**
 * The user's usage entries and request logs agree to the micro-USD: every usage entry is a
 * completed debit of exactly the sum of the logs that name it (at least one), every log with a
 * cost names a usage entry of the user, and so Σ usage entries == −Σ the logs' costs.
 */
export async function expectUsageCoversCalls(db: Db, userId: string): Promise<void> {
  const entries = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'usage')))
  const logs = await db
    .select({ cost: requestLogs.costMicros, entryId: requestLogs.ledgerEntryId })
    .from(requestLogs)
    .where(eq(requestLogs.userId, userId))
  const byEntry = new Map<string, { cost: bigint; calls: number }>()
  for (const l of logs) {
    if (l.cost === 0n) {
      expect(l.entryId).toBeNull()
      continue
    }
    expect(l.entryId).not.toBeNull()
    const e = byEntry.get(l.entryId!) ?? { cost: 0n, calls: 0 }
    byEntry.set(l.entryId!, { cost: e.cost + l.cost, calls: e.calls + 1 })
  }
  expect(entries.map((e) => e.id).sort()).toEqual([...byEntry.keys()].sort())
  for (const e of entries) {
    expect(e.status).toBe('completed')
    expect(e.amountMicros).toBe(-byEntry.get(e.id)!.cost)
    expect(e.meta?.calls).toBe(byEntry.get(e.id)!.calls)
  }
}

/** Micro-USD still reserved for `userId` (0 when the account is not mirrored). */
export const reservedNow = async (gw: GatewayInstance, userId: string): Promise<bigint> =>
  (await gw.runtime.deps.store.account(userId))?.reservedMicros ?? 0n

/** Resolves once every listed request has its request_logs row — written by the running writer itself. */
export async function untilLogged(
  gw: GatewayInstance,
  requestIds: string[],
  what = 'the ledger writer to write the backlog',
): Promise<void> {
  await until(
    async () =>
      (await gw.runtime.deps.db.select({ id: requestLogs.id }).from(requestLogs).where(inArray(requestLogs.id, requestIds))).length ===
      requestIds.length,
    what,
  )
}
