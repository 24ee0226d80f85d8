// The schema index names every table the migrations create, and nothing else: a table added to
// a migration but not to the schema (or the other way round) is found here.
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import * as schema from '../../../src/db/schema/index.ts'
import { describeServices } from '../../helpers/services.ts'
import { migratedDatabase } from './migrated.ts'

const tables: PgTable[] = (Object.values(schema) as unknown[]).filter((v): v is PgTable => v instanceof PgTable)
const declared = tables.map((t) => getTableConfig(t).name).sort()

describeServices('schema index', () => {
  const h = migratedDatabase()

  test('the tables declared are the tables migrated (partitions and drizzle’s own aside)', async () => {
    const rows = (await h.db.execute(
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`,
    )) as unknown as { name: string }[]
    expect(rows.map((r) => r.name).sort()).toEqual(declared)
  })

  test('every declared column exists in the migrated table', async () => {
    const rows = (await h.db.execute(
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`,
    )) as unknown as { table_name: string; column_name: string }[]
    const have = new Set(rows.map((r) => `${r.table_name}.${r.column_name}`))
    const missing = tables
      .flatMap((t) => {
        const c = getTableConfig(t)
        return c.columns.map((col) => `${c.name}.${col.name}`)
      })
      .filter((name) => !have.has(name))
    expect(missing).toEqual([])
  })
})
