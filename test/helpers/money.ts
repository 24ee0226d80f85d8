// The money invariants every fault test ends with (docs/operations.md): Postgres balance == credit
// − Σ completed ledger entries == credit − Σ what the answered calls cost; each answered call has
// exactly one usage entry; nothing is left reserved.
import { expect } from 'bun:test'
import { inArray } from 'drizzle-orm'
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
  const ids = billed.map((b) => b.requestId)
  if (ids.length === 0) return
  const entries = await gw.runtime.deps.db.select().from(ledgerEntries).where(inArray(ledgerEntries.requestId, ids))
  expect(entries.map((e) => e.requestId).sort()).toEqual(
    billed
      .filter((b) => b.cost > 0n)
      .map((b) => b.requestId)
      .sort(),
  )
  for (const b of billed) if (b.cost > 0n) expect(entries.find((e) => e.requestId === b.requestId)!.amountMicros).toBe(-b.cost)
  const logs = await gw.runtime.deps.db.select({ id: requestLogs.id }).from(requestLogs).where(inArray(requestLogs.id, ids))
  expect(logs).toHaveLength(ids.length)
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
