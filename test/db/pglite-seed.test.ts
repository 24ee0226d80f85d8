// Embedded first start: the shipped initdb seed (src/db/pglite-seed.ts) for the installed PGlite
// is present, and a new database (from the migrated snapshot built on it, test/db/pglite-snapshot.test.ts)
// has the full schema and keeps its data across restarts.
import { afterAll, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../src/db/client.ts'
import { seed, seedPath } from '../../src/db/pglite-seed.ts'

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
}, 60_000)

test('a seed is shipped for the installed PGlite version (after an upgrade: bun run db:seed)', () => {
  expect(existsSync(seedPath())).toBe(true)
  expect(seed()).toBeDefined()
})

test('a new data directory is migrated and keeps its data across restarts', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tg-seed-'))
  dirs.push(dir)
  const first = await openDatabase(`file://${dir}`)
  await first.db.execute(sql`insert into users (id, email) values ('usr_seed', 'seed@test.local')`)
  await first.close()
  const again = await openDatabase(`file://${dir}`)
  const rows = await again.db.execute(sql`select email from users where id = 'usr_seed'`)
  await again.close()
  expect(JSON.stringify(rows)).toContain('seed@test.local')
})

test('memory:// starts with the full schema', async () => {
  const database = await openDatabase('memory://')
  const rows = await database.db.execute(
    sql`select count(*)::int as n from information_schema.tables where table_name in ('users', 'ledger_entries', 'request_logs')`,
  )
  await database.close()
  expect(JSON.stringify(rows)).toContain('3')
})
