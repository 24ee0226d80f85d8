// The hot balance mirror never misses or doubles a movement that races a cold load: loads read
// the account row FOR SHARE and movements adjust the mirror while holding the row.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { applyMovement, createUser, loadMirror } from '../../src/billing/accounts.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { accounts, apiKeys } from '../../src/db/schema/index.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import { createRedisStore } from '../../src/store/redis.ts'
import type { Store } from '../../src/store/types.ts'
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
          loadMirror(db, store, user.id, keyId),
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
        await loadMirror(db, store, user.id, keyId) // a no-op when the race already loaded it
        const [row] = await db.select().from(accounts).where(eq(accounts.userId, user.id))
        expect((await store.account(user.id))?.balanceMicros).toBe(row!.balanceMicros)
      }
      const [final] = await db.select().from(accounts).where(eq(accounts.userId, user.id))
      expect(final!.balanceMicros).toBe(25n * 1_007n)
    })
  })
}
