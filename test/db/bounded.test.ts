// The console's bounded view of Postgres (src/db/bounded.ts): a statement or transaction that
// Postgres does not finish in time fails with a DeadlineError (an outage, lib/outage.ts) instead
// of hanging; a transaction given up rolls back; fast work is untouched. PGlite is passed through.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { boundedDb } from '../../src/db/bounded.ts'
import { type Database, openDatabase } from '../../src/db/client.ts'
import { users } from '../../src/db/schema/index.ts'
import { DeadlineError } from '../../src/lib/deadline.ts'
import { isOutage } from '../../src/lib/outage.ts'
import { describeServices, freshDatabase } from '../helpers/services.ts'

test('PGlite (in-process, no outage) is passed through as is', async () => {
  const database = await openDatabase('memory://')
  try {
    expect(boundedDb(database.db, 500)).toBe(database.db)
  } finally {
    await database.close()
  }
})

describeServices('boundedDb on postgres', () => {
  let database: Database
  let drop = async () => {}
  beforeAll(async () => {
    const db = await freshDatabase()
    drop = db.drop
    database = await openDatabase(db.url)
  }, 30_000)
  afterAll(async () => {
    await database.close()
    await drop()
  })

  test('fast statements and transactions behave as on the plain client', async () => {
    const db = boundedDb(database.db, 2_000)
    expect(await db.execute(sql`select 1 as one`)).toEqual([{ one: 1 }])
    const email = `${crypto.randomUUID()}@test.local`
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ id: `usr_${crypto.randomUUID()}`, email })
        .returning({ id: users.id })
      return row!.id
    })
    expect(await db.select({ email: users.email }).from(users).where(eq(users.id, id))).toEqual([{ email }])
  })

  test('a statement not answered in time fails fast with an outage error', async () => {
    const db = boundedDb(database.db, 200)
    const t0 = performance.now()
    const err = await db.execute(sql`select pg_sleep(2)`).catch((e: unknown) => e)
    expect((err as Error).cause).toBeInstanceOf(DeadlineError) // drizzle wraps it in DrizzleQueryError
    expect(isOutage(err)).toBe(true)
    expect(performance.now() - t0).toBeLessThan(1_500)
  })

  test('a transaction whose statement is not answered in time fails fast and is rolled back', async () => {
    const db = boundedDb(database.db, 300)
    const email = `${crypto.randomUUID()}@test.local`
    const t0 = performance.now()
    const err = await db
      .transaction(async (tx) => {
        await tx.insert(users).values({ id: `usr_${crypto.randomUUID()}`, email })
        await tx.execute(sql`select pg_sleep(2)`)
      })
      .catch((e: unknown) => e)
    expect(isOutage(err)).toBe(true)
    expect(performance.now() - t0).toBeLessThan(1_500) // not held up by the ROLLBACK queued behind the sleep
    await Bun.sleep(2_200) // the sleeping statement ends; the transaction must not commit after it
    expect(await database.db.select().from(users).where(eq(users.email, email))).toEqual([])
  })
})
