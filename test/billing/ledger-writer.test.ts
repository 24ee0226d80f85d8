// The ledger writer is idempotent: a redelivered batch bills nothing twice, and the balance
// always equals the sum of completed ledger entries.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { applyMovement } from '../../src/billing/accounts.ts'
import { writeRecords } from '../../src/billing/ledger-writer.ts'
import { encodeRecord, type OutboxRecord } from '../../src/billing/outbox-record.ts'
import { apiKeys, requestLogs } from '../../src/db/schema/index.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import { usageRecord } from '../helpers/records.ts'
import { books, describeOnDatabases, fundedUser as funded } from '../helpers/migrated-databases.ts'

const record = (userId: string, keyId: string, requestId: string, cost: string): OutboxRecord =>
  usageRecord({ requestId, userId, keyId, cost, latencyMs: 12.5 })

describeOnDatabases('ledger writer', (database) => {
  const fundedUser = async () => {
    const u = await funded(database(), 1_000n)
    return { userId: u.userId, keyId: u.keyIds[0]! }
  }

  test('writes logs and usage entries; the same batch again changes nothing', async () => {
    const u = await fundedUser()
    const batch = [
      record(u.userId, u.keyId, `req_${crypto.randomUUID()}`, '100'),
      record(u.userId, u.keyId, `req_${crypto.randomUUID()}`, '0'),
      record(u.userId, u.keyId, `req_${crypto.randomUUID()}`, '50'),
    ]
    expect(await writeRecords(database().db, batch.map(encodeRecord))).toBe(2)
    expect(await books(database(), u.userId)).toEqual({ balance: 850n, ledger: 850n })
    expect(await writeRecords(database().db, batch.map(encodeRecord))).toBe(0)
    expect(await writeRecords(database().db, [batch[2]!, batch[0]!].map(encodeRecord))).toBe(0)
    expect(await books(database(), u.userId)).toEqual({ balance: 850n, ledger: 850n })
    const logs = await database().db.select().from(requestLogs).where(eq(requestLogs.userId, u.userId))
    expect(logs).toHaveLength(3)
    const [key] = await database().db.select().from(apiKeys).where(eq(apiKeys.id, u.keyId))
    expect(key!.spentMicros).toBe(150n)
    expect(key!.lastUsedAt).not.toBeNull()
  })

  test('applyMovement with a used reference moves nothing', async () => {
    const u = await fundedUser()
    const store = createMemoryStore()
    expect(
      await applyMovement(database().db, store, {
        userId: u.userId,
        amountMicros: 5n,
        kind: 'adjustment',
        method: 'test',
        reference: `dup:${u.userId}`,
      }),
    ).toBe(1_005n)
    expect(
      await applyMovement(database().db, store, {
        userId: u.userId,
        amountMicros: 5n,
        kind: 'adjustment',
        method: 'test',
        reference: `dup:${u.userId}`,
      }),
    ).toBeUndefined()
    expect(await books(database(), u.userId)).toEqual({ balance: 1_005n, ledger: 1_005n })
  })
})
