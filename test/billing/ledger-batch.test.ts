// The ledger writer's statement (src/billing/ledger-batch.ts, docs/api.md "Ledger"): one usage
// entry per account and batch, of exactly the costs of the calls it inserted, each call's log
// naming it; a redelivered call bills nothing twice, alone, mixed with new calls, or raced by a
// second writer; the balance stays the sum of completed entries.
import { expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { isRecordError } from '../../src/billing/dead-letters.ts'
import { sqlState } from '../../src/db/sql-state.ts'
import { writeRecords } from '../../src/billing/ledger-batch.ts'
import { encodeRecord } from '../../src/billing/outbox-record.ts'
import { apiKeys, ledgerEntries, requestLogs } from '../../src/db/schema/index.ts'
import { billedCalls, expectUsageCoversCalls } from '../helpers/money.ts'
import { usageRecord } from '../helpers/records.ts'
import { books, describeOnDatabases, fundedUser as funded } from '../helpers/migrated-databases.ts'

const CREDIT = 1_000_000n

describeOnDatabases('ledger batch', (database) => {
  const fundedUser = () => funded(database(), CREDIT, 2)

  const call = (u: { userId: string; keyIds: string[] }, cost: number, key = 0) =>
    encodeRecord(usageRecord({ requestId: `req_${crypto.randomUUID()}`, userId: u.userId, keyId: u.keyIds[key]!, cost: String(cost) }))
  const idOf = (record: string) => JSON.parse(record).requestId as string

  const usageEntries = (userId: string) =>
    database()
      .db.select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'usage')))

  test('one usage entry per account and batch, of the sum of its calls; each log names it; a free call names none', async () => {
    const a = await fundedUser()
    const b = await fundedUser()
    const batch = [call(a, 100), call(b, 7), call(a, 0), call(a, 250, 1), call(b, 3, 1)]
    expect(await writeRecords(database().db, batch)).toBe(4)
    const [ea] = await usageEntries(a.userId)
    const [eb] = await usageEntries(b.userId)
    expect(ea).toMatchObject({ amountMicros: -350n, status: 'completed', method: 'api', keyId: null, requestId: null })
    expect(eb!.amountMicros).toBe(-10n)
    expect(ea!.meta).toMatchObject({ calls: 2 })
    expect(ea!.id).not.toBe(eb!.id)
    const logs = await billedCalls(database().db, batch.map(idOf))
    const entryOf = (r: string) => logs.find((l) => l.id === idOf(r))!.entryId
    expect([entryOf(batch[0]!), entryOf(batch[2]!), entryOf(batch[3]!)]).toEqual([ea!.id, null, ea!.id])
    expect([entryOf(batch[1]!), entryOf(batch[4]!)]).toEqual([eb!.id, eb!.id])
    expect(await books(database(), a.userId)).toEqual({ balance: CREDIT - 350n, ledger: CREDIT - 350n })
    expect(await books(database(), b.userId)).toEqual({ balance: CREDIT - 10n, ledger: CREDIT - 10n })
    // Key spend is per key, from the calls (an entry covers the account's keys together).
    const spent = await database()
      .db.select({ id: apiKeys.id, spent: apiKeys.spentMicros })
      .from(apiKeys)
      .where(eq(apiKeys.userId, a.userId))
    expect(Object.fromEntries(spent.map((k) => [k.id, k.spent]))).toEqual({ [a.keyIds[0]!]: 100n, [a.keyIds[1]!]: 250n })
    await expectUsageCoversCalls(database().db, a.userId)
    await expectUsageCoversCalls(database().db, b.userId)
  })

  test('a redelivered batch adds no entry; mixed with new calls, the new entry is only theirs', async () => {
    const u = await fundedUser()
    const first = [call(u, 40), call(u, 60)]
    expect(await writeRecords(database().db, first)).toBe(2)
    expect(await writeRecords(database().db, first)).toBe(0)
    expect(await usageEntries(u.userId)).toHaveLength(1)
    const fresh = call(u, 5)
    expect(await writeRecords(database().db, [first[1]!, fresh, first[0]!])).toBe(1)
    const entries = await usageEntries(u.userId)
    expect(entries.map((e) => e.amountMicros).sort()).toEqual([-100n, -5n])
    expect(await books(database(), u.userId)).toEqual({ balance: CREDIT - 105n, ledger: CREDIT - 105n })
    await expectUsageCoversCalls(database().db, u.userId)
  })

  test('a batch holding the same call twice writes and bills it once', async () => {
    const u = await fundedUser()
    const once = call(u, 30)
    expect(await writeRecords(database().db, [once, call(u, 2), once])).toBe(2)
    expect(await books(database(), u.userId)).toEqual({ balance: CREDIT - 32n, ledger: CREDIT - 32n })
    await expectUsageCoversCalls(database().db, u.userId)
  })

  test('a cost that is no bigint is refused as Postgres refuses it (22P02, 22003), and nothing of its batch is written', async () => {
    const u = await fundedUser()
    const good = call(u, 9)
    for (const [cost, code] of [
      ['1.5', '22P02'],
      ['', '22P02'],
      ['9223372036854775808', '22003'],
    ] as const) {
      const bad = encodeRecord(usageRecord({ requestId: `req_${crypto.randomUUID()}`, userId: u.userId, keyId: u.keyIds[0]!, cost }))
      const err = await writeRecords(database().db, [good, bad]).catch((e) => e)
      expect(isRecordError(err)).toBe(true)
      expect(sqlState(err)).toBe(code)
    }
    expect(await books(database(), u.userId)).toEqual({ balance: CREDIT, ledger: CREDIT })
    expect(await writeRecords(database().db, [good])).toBe(1)
  })

  test('two writers racing over the same calls bill each exactly once', async () => {
    const u = await fundedUser()
    const calls = Array.from({ length: 40 }, (_, i) => call(u, 1 + i, i % 2))
    // Overlapping halves, written at once, several times over.
    const runs = await Promise.all([
      writeRecords(database().db, calls.slice(0, 30)),
      writeRecords(database().db, calls.slice(10)),
      writeRecords(database().db, calls.toReversed()),
    ])
    expect(runs.reduce((n, r) => n + r, 0)).toBe(40)
    const total = calls.reduce((n, _, i) => n + BigInt(1 + i), 0n)
    expect(await books(database(), u.userId)).toEqual({ balance: CREDIT - total, ledger: CREDIT - total })
    const logs = await database().db.select({ id: requestLogs.id }).from(requestLogs).where(eq(requestLogs.userId, u.userId))
    expect(logs).toHaveLength(40)
    await expectUsageCoversCalls(database().db, u.userId)
  })
})
