// A transaction Postgres aborts for its concurrency alone (deadlock 40P01, serialization failure
// 40001) runs again, at most four times; any other error is thrown at once. And a real deadlock
// between two transactions, on the shared Postgres: the loser runs again and both commit.
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { retryingTransaction } from '../../src/db/conflict-retry.ts'
import { sqlState } from '../../src/db/sql-state.ts'
import postgres from 'postgres'
import { drizzle } from 'drizzle-orm/postgres-js'
import { describeServices, freshDatabase } from '../helpers/services.ts'

const aborted = (code: string) => Object.assign(new Error('aborted'), { cause: { code } })

function fakeDb(failures: unknown[]) {
  let runs = 0
  const db = {
    transaction: async <T>(fn: (tx: never) => Promise<T>) => {
      runs++
      const failure = failures.shift()
      if (failure) throw failure
      return fn(undefined as never)
    },
  }
  return { db: db as never, runs: () => runs }
}

test('a deadlock or serialization failure runs the transaction again; it then answers', async () => {
  const f = fakeDb([aborted('40P01'), aborted('40001')])
  expect(await retryingTransaction(f.db, async () => 'done')).toBe('done')
  expect(f.runs()).toBe(3)
})

test('at most four runs; any other error is thrown at once', async () => {
  const always = fakeDb([aborted('40P01'), aborted('40P01'), aborted('40P01'), aborted('40P01'), aborted('40P01')])
  expect(await retryingTransaction(always.db, async () => 'x').catch((e) => sqlState(e))).toBe('40P01')
  expect(always.runs()).toBe(4)
  const other = fakeDb([aborted('23505')])
  expect(await retryingTransaction(other.db, async () => 'x').catch((e) => sqlState(e))).toBe('23505')
  expect(other.runs()).toBe(1)
  expect(sqlState(new Error('plain'))).toBeUndefined()
})

describeServices('a real deadlock', () => {
  test('two transactions locking two rows in opposite orders: Postgres aborts one, it runs again, both commit', async () => {
    const fresh = await freshDatabase()
    const client = postgres(fresh.url, { max: 2, onnotice: () => {} })
    const db = drizzle(client) as never as Parameters<typeof retryingTransaction>[0] & { execute: (q: unknown) => Promise<unknown> }
    try {
      await db.execute(sql`create table pair (id int primary key, n int not null)`)
      await db.execute(sql`insert into pair values (1, 0), (2, 0)`)
      let runs = 0
      const crossing = (first: number, second: number) =>
        retryingTransaction(db, async (tx: any) => {
          runs++
          await tx.execute(sql`update pair set n = n + 1 where id = ${first}`)
          await Bun.sleep(150)
          await tx.execute(sql`update pair set n = n + 1 where id = ${second}`)
        })
      await Promise.all([crossing(1, 2), crossing(2, 1)])
      expect(runs).toBe(3)
      const rows = (await db.execute(sql`select n from pair order by id`)) as unknown as { n: number }[]
      expect(rows.map((r) => r.n)).toEqual([2, 2])
    } finally {
      await client.end()
      await fresh.drop()
    }
  }, 30_000)
})
