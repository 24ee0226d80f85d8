// A statement run the same way many times (the ledger writer's batch): on Postgres it goes as a
// named prepared statement, which postgres.js keeps per connection, so Postgres parses it once
// and, after a few runs, keeps one plan for it instead of planning the whole statement again for
// every batch (docs/operations.md "Ledger writer"). PGlite runs it as an ordinary statement.
import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { isPostgresJs } from './bounded.ts'
import type { Db } from './client.ts'

const dialect = new PgDialect()

/** The statement's rows. */
export async function executePrepared<Row>(db: Db, query: SQL): Promise<Row[]> {
  const client = (db as { $client?: unknown }).$client
  if (isPostgresJs(client)) {
    const { sql, params } = dialect.sqlToQuery(query)
    return (await client.unsafe(sql, params as never[], { prepare: true })) as unknown as Row[]
  }
  const result = await db.execute(query)
  // PGlite answers an object with `rows`.
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Row[]
}
