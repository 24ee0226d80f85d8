// A suite run once on each embedded and real database: a fresh, migrated Postgres database
// (with the services) and an in-memory PGlite, opened before the suite and dropped after it.
import { afterAll, beforeAll, describe } from 'bun:test'
import { applyMovement, createUser } from '../../src/billing/accounts.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { accounts, apiKeys, ledgerEntries } from '../../src/db/schema/index.ts'
import { eq, sql } from 'drizzle-orm'
import { createMemoryStore } from '../../src/store/memory.ts'
import { freshDatabase, SERVICES } from './services.ts'

export type DatabaseKind = 'postgres' | 'pglite'

/** describe(`${name} on <kind>`) for each database kind; `fn` reads the open database through its getter. */
export function describeOnDatabases(name: string, fn: (database: () => Database, kind: DatabaseKind) => void): void {
  for (const kind of (['postgres', 'pglite'] as const).filter((k) => SERVICES || k === 'pglite'))
    describe(`${name} on ${kind}`, () => {
      let database: Database
      let drop = async () => {}
      beforeAll(async () => {
        if (kind === 'postgres') {
          const fresh = await freshDatabase()
          drop = fresh.drop
          database = await openDatabase(fresh.url)
        } else database = await openDatabase('memory://')
      })
      afterAll(async () => {
        await database.close()
        await drop()
      })
      fn(() => database, kind)
    })
}

/** A user credited `credit` micro-USD through the ledger, with `keys` API keys. */
export async function fundedUser(database: Database, credit: bigint, keys = 1): Promise<{ userId: string; keyIds: string[] }> {
  const { db } = database
  const user = await createUser(db, `${crypto.randomUUID()}@test.local`, null)
  await applyMovement(db, createMemoryStore(), {
    userId: user.id,
    amountMicros: credit,
    kind: 'adjustment',
    method: 'test',
    reference: `t:${user.id}`,
  })
  const keyIds = Array.from({ length: keys }, () => `key_${crypto.randomUUID()}`)
  for (const keyId of keyIds) await db.insert(apiKeys).values({ id: keyId, userId: user.id, keyHash: crypto.randomUUID(), prefix: 'sk-x' })
  return { userId: user.id, keyIds }
}

/** A user's balance and the sum of their completed ledger entries, in micro-USD: equal when the books are right. */
export async function books(database: Database, userId: string): Promise<{ balance: bigint; ledger: bigint }> {
  const [a] = await database.db.select().from(accounts).where(eq(accounts.userId, userId))
  const [s] = await database.db
    .select({ s: sql<string>`sum(${ledgerEntries.amountMicros})::text` })
    .from(ledgerEntries)
    .where(sql`${ledgerEntries.userId} = ${userId} and ${ledgerEntries.status} = 'completed'`)
  return { balance: a!.balanceMicros, ledger: BigInt(s!.s) }
}
