// The hot balance mirror never misses or doubles a movement that races a cold load: loads read
// the account row FOR SHARE and movements adjust the mirror while holding the row. A load also
// counts the account's settled calls that the ledger writer has not written yet, and only those
// (docs/operations.md "Reloading a mirror").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { applyMovement, createUser } from '../../src/billing/accounts.ts'
import { loadMirror, unwrittenCost } from '../../src/billing/mirror.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { LedgerWriter, writeRecords } from '../../src/billing/ledger-writer.ts'
import { encodeRecord } from '../../src/billing/outbox-record.ts'
import { accounts, apiKeys } from '../../src/db/schema/index.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { usageRecord } from '../helpers/records.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import { createRedisStore } from '../../src/store/redis.ts'
import type { Store } from '../../src/store/types.ts'
import type { Db } from '../../src/db/client.ts'
import { freshDatabase, freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'

for (const kind of (['postgres+redis', 'pglite+memory'] as const).filter((k) => SERVICES || k === 'pglite+memory')) {
  describe(`mirror vs movements on ${kind}`, () => {
    let database: Database
    let store: Store
    const cleanup: (() => Promise<void>)[] = []
    beforeAll(async () => {
      if (kind === 'postgres+redis') {
        const fresh = await freshDatabase()
        const keys = freshKeyPrefix()
        database = await openDatabase(fresh.url)
        store = await createRedisStore(REDIS_URL, { prefix: keys.prefix, shards: 4 })
        cleanup.push(
          () => store.close(),
          () => database.close(),
          fresh.drop,
          keys.clear,
        )
      } else {
        database = await openDatabase('memory://')
        store = createMemoryStore()
        cleanup.push(() => database.close())
      }
    })
    afterAll(async () => {
      for (const c of cleanup) await c()
    })

    test('a cold load racing credits ends with the mirror equal to Postgres, every time', async () => {
      const { db } = database
      const user = await createUser(db, `${crypto.randomUUID()}@t.io`, null)
      const keyId = `key_${crypto.randomUUID()}`
      await db.insert(apiKeys).values({ id: keyId, userId: user.id, keyHash: crypto.randomUUID(), prefix: 'sk-x' })
      for (let round = 0; round < 25; round++) {
        await store.forgetAccount(user.id)
        await Promise.all([
          loadMirror(db, store, { userId: user.id, keyId: keyId }),
          applyMovement(db, store, {
            userId: user.id,
            amountMicros: 1_000n,
            kind: 'adjustment',
            method: 'test',
            reference: `r:${user.id}:${round}:a`,
          }),
          applyMovement(db, store, {
            userId: user.id,
            amountMicros: 7n,
            kind: 'adjustment',
            method: 'test',
            reference: `r:${user.id}:${round}:b`,
          }),
        ])
        await loadMirror(db, store, { userId: user.id, keyId: keyId }) // a no-op when the race already loaded it
        const [row] = await db.select().from(accounts).where(eq(accounts.userId, user.id))
        expect((await store.account(user.id))?.balanceMicros).toBe(row!.balanceMicros)
      }
      const [final] = await db.select().from(accounts).where(eq(accounts.userId, user.id))
      expect(final!.balanceMicros).toBe(25n * 1_007n)
    })

    /** A user with a key and 1 USD, mirrored. */
    const funded = async () => {
      const { db } = database
      const user = await createUser(db, `${crypto.randomUUID()}@t.io`, null)
      const keyId = `key_${crypto.randomUUID()}`
      await db.insert(apiKeys).values({ id: keyId, userId: user.id, keyHash: crypto.randomUUID(), prefix: 'sk-x' })
      await applyMovement(db, store, {
        userId: user.id,
        amountMicros: 1_000_000n,
        kind: 'adjustment',
        method: 'test',
        reference: `fund:${user.id}`,
      })
      await loadMirror(db, store, { userId: user.id, keyId: keyId })
      return { userId: user.id, keyId }
    }
    /** Settles one call of `cost` into the outbox (mirror and outbox move together) and returns its record. */
    const settleCall = async (u: { userId: string; keyId: string }, cost: bigint) => {
      const record = callRecordOf(u, `req_${crypto.randomUUID()}`, cost)
      await store.settle({ userId: u.userId, keyId: u.keyId, reservedMicros: 0n, costMicros: cost, record })
      return record
    }
    const postgresBalance = async (db: Db, userId: string) =>
      (await db.select().from(accounts).where(eq(accounts.userId, userId)))[0]!.balanceMicros

    test('a reload takes off the calls still in the outbox and not in Postgres, and not the ones already written', async () => {
      const { db } = database
      const u = await funded()
      const [first, second, third] = [await settleCall(u, 100n), await settleCall(u, 20n), await settleCall(u, 3n)]
      // The writer has put the first in Postgres but not yet acknowledged it: it is in both.
      await writeRecords(db, [first])
      await store.forgetAccount(u.userId)
      await loadMirror(db, store, { userId: u.userId, keyId: u.keyId })
      expect((await store.account(u.userId))?.balanceMicros).toBe(1_000_000n - 123n)
      expect(await postgresBalance(db, u.userId)).toBe(1_000_000n - 100n)
      // Once everything is written the two agree; the first is not billed twice.
      await writeRecords(db, [first, second, third])
      expect(await postgresBalance(db, u.userId)).toBe(1_000_000n - 123n)
      // The key's spend was made whole the same way: 123 spent, so 877 more fits a limit of 1000 and 878 does not.
      const admit = (reserveMicros: bigint) =>
        store.admit({ userId: u.userId, keyId: u.keyId, rpm: 100, nowMs: Date.now(), reserveMicros, keyLimitMicros: 1_000n })
      expect(await admit(878n)).toMatchObject({ ok: false, reason: 'key_limit' })
      expect(await admit(877n)).toMatchObject({ ok: true })
    })

    test('a reload does not hold again the lease of a call the settlement fallback already wrote; a live call it does', async () => {
      const { db } = database
      const u = await funded()
      const admitLeased = async (id: string) => {
        const record = callRecordOf(u, id, 40n)
        const lease = { id, deadlineMs: Date.now() + 60_000, abandonCostMicros: 40n, abandonRecord: record }
        expect(
          await store.admit({
            userId: u.userId,
            keyId: u.keyId,
            rpm: 100,
            nowMs: Date.now(),
            reserveMicros: 500n,
            keyLimitMicros: null,
            lease,
          }),
        ).toMatchObject({
          ok: true,
        })
        return record
      }
      const rescued = await admitLeased(`req_${crypto.randomUUID()}`)
      const live = `req_${crypto.randomUUID()}`
      await admitLeased(live)
      // The first call's settle failed: the fallback wrote it to Postgres; its mirror drop (with
      // its lease) has not run. The mirror is gone another way (a failed admit's drop).
      await writeRecords(db, [rescued])
      await store.forgetAccount(u.userId)
      await loadMirror(db, store, { userId: u.userId, keyId: u.keyId })
      // Only the live call's reservation is held; the balance is Postgres's, the written call counted once.
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 1_000_000n - 40n, reservedMicros: 500n })
      expect(await store.accountLeases(u.userId)).toEqual([live])
      // The ended lease is no sweep's to bill again.
      expect(await store.sweepLeases(Date.now() + 120_000, 10)).toBe(1)
      expect((await store.account(u.userId))?.reservedMicros).toBe(0n)
    })

    test('reloads racing the ledger writer end with the mirror equal to Postgres, every time', async () => {
      const { db } = database
      const u = await funded()
      const writer = new LedgerWriter({ db, store, log: silentLogger, batch: 4, blockMs: 5, lingerMs: 0 })
      writer.start()
      let billed = 0n
      try {
        for (let round = 0; round < 20; round++) {
          const costs = [1n, 10n, 100n, 1_000n].map((c) => c + BigInt(round))
          const settled = Promise.all(costs.map((c) => settleCall(u, c)))
          billed += costs.reduce((a, b) => a + b)
          // The mirror is lost and reloaded while the writer is busy with this round's calls.
          await Bun.sleep(round % 4)
          await store.forgetAccount(u.userId)
          await loadMirror(db, store, { userId: u.userId, keyId: u.keyId })
          await settled
          while ((await store.outboxStats()).depth > 0) await Bun.sleep(1)
          expect((await store.account(u.userId))?.balanceMicros).toBe(await postgresBalance(db, u.userId))
        }
      } finally {
        await writer.stop()
      }
      expect(await postgresBalance(db, u.userId)).toBe(1_000_000n - billed)
    })
  })
}

const callRecordOf = (u: { userId: string; keyId: string }, requestId: string, cost: bigint) =>
  encodeRecord(usageRecord({ requestId, userId: u.userId, keyId: u.keyId, cost: cost.toString() }))

describe('unwrittenCost', () => {
  const call = (requestId: string, keyId: string, costMicros: bigint) => ({ requestId, keyId, costMicros })
  test("sums the calls Postgres does not hold, each request once, and the key's part", () => {
    const calls = [call('a', 'k1', 100n), call('b', 'k2', 20n), call('a', 'k1', 100n), call('c', 'k1', 3n)]
    expect(unwrittenCost(calls, new Set(['c']), 'k1')).toEqual({ account: 120n, key: 100n })
    expect(unwrittenCost(calls, new Set(), 'k2')).toEqual({ account: 123n, key: 20n })
    expect(unwrittenCost([], new Set(), 'k1')).toEqual({ account: 0n, key: 0n })
  })
})
