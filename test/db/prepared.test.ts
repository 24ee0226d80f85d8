// executePrepared: on Postgres the statement is a named prepared statement of the connection
// (parsed once, its plan kept), answering the same rows as an ordinary statement; on PGlite it is
// an ordinary statement with the same answer.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { openDatabase, type Db } from '../../src/db/client.ts'
import { executePrepared } from '../../src/db/prepared.ts'
import * as schema from '../../src/db/schema/index.ts'
import { describeServices, PG_ADMIN_URL } from '../helpers/services.ts'

const doubled = (n: number) => sql`select ${n}::int * 2 as twice, 'prepared-statement-probe' as probe`

describeServices('executePrepared on Postgres', () => {
  let client: postgres.Sql
  let db: Db
  beforeAll(() => {
    // One connection, so the prepared statement and the view that lists it are the same session's.
    client = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} })
    db = drizzle(client, { schema }) as unknown as Db
  })
  afterAll(() => client.end())

  test('answers the rows, and the connection keeps one prepared statement for every run', async () => {
    for (const n of [1, 2, 3, 4, 5, 6, 7])
      expect(await executePrepared<{ twice: number; probe: string }>(db, doubled(n))).toEqual([
        { twice: 2 * n, probe: 'prepared-statement-probe' },
      ])
    const rows =
      await client`select count(*)::int as n from pg_prepared_statements where statement like '%prepared-statement-probe%' and statement not like '%pg_prepared_statements%'`
    expect(rows[0]!.n).toBe(1)
  })
})

test('executePrepared on PGlite answers the same rows', async () => {
  const database = await openDatabase('memory://')
  try {
    expect(await executePrepared<{ twice: number; probe: string }>(database.db, doubled(21))).toEqual([
      { twice: 42, probe: 'prepared-statement-probe' },
    ])
  } finally {
    await database.close()
  }
})
