// The migrated PGlite snapshot (src/db/pglite-snapshot.ts): shipped for the installed PGlite and
// the current migrations, holding exactly the schema migrating the seed gives, refused as soon as
// the migrations change (the database then starts from the seed and migrates), and used for a new
// data directory, never over an existing one.
import { afterAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { existsSync, statSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { type Database, openPglite } from '../../src/db/client.ts'
import { MIGRATIONS_FOLDER } from '../../src/db/migrations.ts'
import { snapshot, snapshotPath, startingCluster, unpackCluster, WAL_SEGMENT_BYTES } from '../../src/db/pglite-snapshot.ts'
import { tarEntries } from '../../src/db/tar.ts'

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
}, 60_000)

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

/** A copy of the migrations with `change` applied to it. */
async function migrationsCopy(change: (folder: string) => Promise<void>): Promise<string> {
  const folder = await tempDir('tg-mig-')
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true })
  await change(folder)
  return folder
}

const lastMigration = async (folder: string) => {
  const journal = (await Bun.file(join(folder, 'meta', '_journal.json')).json()) as { entries: { tag: string }[] }
  return join(folder, `${journal.entries.at(-1)!.tag}.sql`)
}

/** The last migration with one more statement: a table named `probe`. */
const withProbe = () =>
  migrationsCopy(async (folder) => {
    const file = await lastMigration(folder)
    await Bun.write(file, `${await Bun.file(file).text()}--> statement-breakpoint\nCREATE TABLE "probe" ("id" integer);`)
  })

// Month partitions of request_logs are made by the migration for the month it runs in
// (request_logs_pYYYYMM, kept by the runtime afterwards), so they differ by date, not by schema.
const MONTH_PARTITION = 'request_logs_p[0-9]{6}'

/** Every schema object of the public and drizzle schemas, one line each, sorted; and each table's row count. */
async function schemaDump(database: Database): Promise<string[]> {
  const result = await database.db.execute(
    sql.raw(`select line from (
      select format('column %s.%s.%s %s %s null=%s default=%s', table_schema, table_name, column_name, data_type, udt_name, is_nullable, column_default) as line
        from information_schema.columns where table_schema in ('public', 'drizzle')
      union all select format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
        from pg_constraint where connamespace in ('public'::regnamespace, 'drizzle'::regnamespace)
      union all select format('index %s %s', schemaname, indexdef) from pg_indexes where schemaname in ('public', 'drizzle')
      union all select format('relation %s %s %s', relnamespace::regnamespace, relname, relkind)
        from pg_class where relnamespace in ('public'::regnamespace, 'drizzle'::regnamespace)
      union all select format('partition %s of %s %s', c.relname, i.inhparent::regclass, pg_get_expr(c.relpartbound, c.oid))
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
      union all select format('function %s %s', p.oid::regprocedure, pg_get_functiondef(p.oid))
        from pg_proc p where pronamespace = 'public'::regnamespace
      union all select format('trigger %s', pg_get_triggerdef(oid)) from pg_trigger where not tgisinternal
      union all select format('view %s %s', viewname, definition) from pg_views where schemaname = 'public'
      union all select format('type %s %s', typname, typtype) from pg_type where typnamespace = 'public'::regnamespace and typtype in ('e', 'd', 'c') and typrelid = 0
      union all select format('enum %s %s', enumtypid::regtype, enumlabel) from pg_enum
      union all select format('sequence %s.%s %s', sequence_schema, sequence_name, data_type) from information_schema.sequences
      union all select format('extension %s', extname) from pg_extension
      union all select format('migration %s %s', hash, created_at) from drizzle.__drizzle_migrations
    ) objects where line !~ '${MONTH_PARTITION}' order by line`),
  )
  const lines = (result as unknown as { rows: { line: string }[] }).rows.map((r) => r.line)
  const tables = (await database.db.execute(
    sql`select schemaname || '.' || relname as t from pg_stat_user_tables order by 1`,
  )) as unknown as { rows: { t: string }[] }
  for (const { t } of tables.rows) {
    const count = (await database.db.execute(sql.raw(`select count(*)::int as n from ${t}`))) as unknown as { rows: { n: number }[] }
    if (!new RegExp(MONTH_PARTITION).test(t)) lines.push(`rows ${t} ${count.rows[0]!.n}`)
  }
  return lines
}

test('a snapshot is shipped for the installed PGlite and the current migrations (after a new migration or seed: bun run db:snapshot)', async () => {
  expect(basename(snapshotPath())).toMatch(/^migrated-\d+\.\d+\.\d+-[0-9a-f]{16}\.tar\.zst$/)
  expect(existsSync(snapshotPath())).toBe(true)
  const start = await startingCluster()
  expect(start?.migrated).toBe(true)
  // Kept small: it is committed, and replaced at each new migration.
  expect(Bun.file(snapshotPath()).size).toBeLessThan(4_000_000)
})

test('the snapshot holds exactly the schema that migrating the seed gives', async () => {
  // A copy of the migrations whose journal differs only in spacing: same migrations, other key,
  // so it starts from the seed and runs every migration.
  const viaSeed = await migrationsCopy(async (folder) => {
    const path = join(folder, 'meta', '_journal.json')
    await Bun.write(path, JSON.stringify(await Bun.file(path).json()))
  })
  expect((await startingCluster(viaSeed))?.migrated).toBe(false)
  const migrated = await openPglite(undefined, 'test', viaSeed)
  const fromSnapshot = await openPglite(undefined, 'test')
  try {
    const [a, b] = [await schemaDump(migrated), await schemaDump(fromSnapshot)]
    expect(a.length).toBeGreaterThan(200)
    expect(a.some((l) => l.startsWith('function request_logs_ensure_partition'))).toBe(true)
    expect(b).toEqual(a)
  } finally {
    await migrated.close()
    await fromSnapshot.close()
  }
}, 120_000)

test('a changed, added or removed migration changes the key: no snapshot matches', async () => {
  const current = snapshotPath()
  const edited = await withProbe()
  const added = await migrationsCopy(async (folder) => {
    const path = join(folder, 'meta', '_journal.json')
    const journal = await Bun.file(path).json()
    journal.entries.push({ ...journal.entries.at(-1), idx: journal.entries.length, when: Date.now(), tag: '9999_probe' })
    await Bun.write(path, JSON.stringify(journal, null, 2))
    await Bun.write(join(folder, '9999_probe.sql'), 'CREATE TABLE "probe" ("id" integer);')
  })
  const removed = await migrationsCopy(async (folder) => {
    const path = join(folder, 'meta', '_journal.json')
    const journal = await Bun.file(path).json()
    journal.entries.pop()
    await Bun.write(path, JSON.stringify(journal, null, 2))
  })
  for (const folder of [edited, added, removed]) {
    expect(snapshotPath(folder)).not.toBe(current)
    expect(await snapshot(folder)).toBeUndefined()
    expect((await startingCluster(folder))?.migrated).toBe(false)
  }
})

test('with a stale snapshot a new database starts from the seed and runs every migration, the edited one included', async () => {
  // The edit is in a migration the snapshot already applied: the migrator would skip it there.
  const edited = await withProbe()
  const database = await openPglite(undefined, 'test', edited)
  try {
    const rows = (await database.db.execute(sql`select to_regclass('probe')::text as t`)) as unknown as { rows: { t: string | null }[] }
    expect(rows.rows[0]!.t).toBe('probe')
  } finally {
    await database.close()
  }
}, 60_000)

test('a new data directory gets the snapshot once and is migrated forward after a new migration; an existing one is never overwritten', async () => {
  const dir = await tempDir('tg-snap-')
  expect((await unpackCluster(dir))?.migrated).toBe(true)
  expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true)
  expect(await unpackCluster(dir)).toBeUndefined()
  const first = await openPglite(dir, 'test')
  await first.db.execute(sql`insert into users (id, email) values ('usr_snap', 'snap@test.local')`)
  await first.close()
  // A later version brings one more migration: the existing directory gets it and keeps its data.
  const added = await migrationsCopy(async (folder) => {
    const path = join(folder, 'meta', '_journal.json')
    const journal = await Bun.file(path).json()
    journal.entries.push({ ...journal.entries.at(-1), idx: journal.entries.length, when: Date.now(), tag: '9999_probe' })
    await Bun.write(path, JSON.stringify(journal, null, 2))
    await Bun.write(join(folder, '9999_probe.sql'), 'CREATE TABLE "probe" ("id" integer);')
  })
  const again = await openPglite(dir, 'test', added)
  try {
    const rows = (await again.db.execute(
      sql`select (select email from users where id = 'usr_snap') as email, to_regclass('probe')::text as probe`,
    )) as unknown as { rows: { email: string; probe: string | null }[] }
    expect(rows.rows[0]).toEqual({ email: 'snap@test.local', probe: 'probe' })
  } finally {
    await again.close()
  }
}, 60_000)

test('the snapshot holds only the postgres database and one WAL segment cut short; a data directory made from it has the segment at full size, writes past it and reopens', async () => {
  const entries = tarEntries((await startingCluster())!.tar)
  const wal = entries.filter((e) => /pg_wal\/[0-9A-F]{24}$/.test(e.name))
  expect(wal).toHaveLength(1)
  expect(wal[0]!.size).toBeLessThan(16 * 1024 * 1024)
  const dir = await tempDir('tg-snap-wal-')
  await unpackCluster(dir)
  // On disk the segment has its full size again: the layout Postgres itself makes.
  const segment = join(dir, wal[0]!.name.replace(/^.*(pg_wal\/)/, '$1'))
  expect(statSync(segment).size).toBe(WAL_SEGMENT_BYTES)
  const first = await openPglite(dir, 'test')
  const databases = (await first.db.execute(sql`select datname from pg_database order by 1`)) as unknown as {
    rows: { datname: string }[]
  }
  expect(databases.rows).toEqual([{ datname: 'postgres' }])
  // ≈ 40 MB of WAL: more than the shipped segment and the next two.
  await first.db.execute(sql`create table filler as select g as id, repeat('x', 200) as s from generate_series(1, 150000) g`)
  await first.close()
  const again = await openPglite(dir, 'test')
  try {
    const rows = (await again.db.execute(
      sql`select count(*)::int as n, pg_current_wal_lsn() > '0/3000000'::pg_lsn as past from filler`,
    )) as unknown as { rows: { n: number; past: boolean }[] }
    expect(rows.rows[0]).toEqual({ n: 150000, past: true })
  } finally {
    await again.close()
  }
}, 60_000)
