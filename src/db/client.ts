// Database factory: Postgres through the `postgres` driver, or PGlite (real Postgres compiled to
// WASM, in-process) when DATABASE_URL is unset or memory://. Both get the same migrations.
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { mkdir } from 'node:fs/promises'
import { holdDirectory } from './dir-lock.ts'
import { MIGRATIONS_FOLDER } from './migrations.ts'
import { startingCluster, unpackCluster } from './pglite-snapshot.ts'
import { pgliteWasm } from './pglite-wasm.ts'
import * as schema from './schema/index.ts'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export interface Database {
  db: Db
  kind: 'postgres' | 'pglite'
  ping(): Promise<void>
  close(): Promise<void>
}

export { MIGRATIONS_FOLDER } from './migrations.ts'

/** Advisory lock id so that several instances starting together migrate one at a time. */
const MIGRATION_LOCK = 7_205_117_003

/** `command` names this process in an embedded directory's lock (db/dir-lock.ts): who holds it. */
export async function openDatabase(url: string | undefined, dataDir = './data/pglite', command = processName()): Promise<Database> {
  if (url === undefined || url.startsWith('memory:') || url.startsWith('file:')) {
    const memory = url?.startsWith('memory:') ?? false
    const dir = url?.startsWith('file:') ? url.slice('file:'.length).replace(/^\/\//, '') : dataDir
    return openPglite(memory ? undefined : dir, command)
  }
  return openPostgres(url)
}

/**
 * Settings of an in-memory cluster. Its files are already in memory, so Postgres's buffer pool
 * would be a second copy of the pages it reads: 16 MB instead of the cluster's 128 MB halves
 * Postgres's boot (docs/testing.md "Start time") and takes ≈ 120 MB less memory per database.
 */
export const IN_MEMORY_SETTINGS = ['-c', 'shared_buffers=16MB']

/**
 * PGlite in `dir`, or in memory when undefined. A new database starts from the shipped migrated
 * snapshot or initdb seed (pglite-snapshot.ts), then the migrator runs as on Postgres: every
 * migration on the seed, the new ones on an existing directory, and not at all on a cluster just
 * made from the current snapshot (its name is the migrations' hash: nothing would be left to do).
 * `migrationsFolder` is for tests.
 */
export async function openPglite(
  dir: string | undefined,
  command = processName(),
  migrationsFolder = MIGRATIONS_FOLDER,
): Promise<Database> {
  const wasm = pgliteWasm()
  // Read (and decompressed) while the modules below load.
  const starting = dir === undefined ? startingCluster(migrationsFolder) : undefined
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { ClusterFS } = await import('./pglite-cluster-fs.ts')
  if (dir !== undefined) await mkdir(dir, { recursive: true })
  // Held before anything in it is read or written: PGlite is single-process.
  const release = dir === undefined ? () => {} : holdDirectory(dir, command)
  try {
    const start = dir === undefined ? await starting : await unpackCluster(dir, migrationsFolder)
    const options = { pgliteWasmModule: await wasm }
    const client =
      dir === undefined
        ? new PGlite({
            ...options,
            fs: start && new ClusterFS(start.tar),
            startParams: [...PGlite.defaultStartParams, ...IN_MEMORY_SETTINGS],
          })
        : new PGlite(dir, options)
    await client.waitReady
    const db = drizzle(client, { schema }) as unknown as Db
    if (!start?.migrated) {
      const { migrate } = await import('drizzle-orm/pglite/migrator')
      await migrate(drizzle(client), { migrationsFolder })
    }
    return {
      db,
      kind: 'pglite',
      ping: async () => void (await client.query('select 1')),
      close: () => client.close().finally(release),
    }
  } catch (e) {
    release()
    throw e
  }
}

/** This process as a lock names it: its script and arguments (`src/index.ts`, `src/admin/grant-cli.ts a@b.c`). */
const processName = () => `bun ${process.argv.slice(1).join(' ')}`.trim()

async function openPostgres(url: string): Promise<Database> {
  const postgres = (await import('postgres')).default
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const { migrate } = await import('drizzle-orm/postgres-js/migrator')
  // Reconnect quickly after an outage (docs/operations.md "Postgres unreachable"): postgres.js's
  // default delay grows as 3^failures/100 s up to 20 s, shared by the pool, so a 15 s outage
  // would keep the gateway off Postgres for up to 20 s more. Here: 50 ms doubling, at most 500 ms.
  const client = postgres(url, { max: 10, onnotice: () => {}, backoff: (n: number) => Math.min(0.05 * 2 ** n, 0.5), connect_timeout: 5 })
  const db = drizzle(client, { schema }) as unknown as Db
  const lockConn = postgres(url, { max: 1, onnotice: () => {} })
  try {
    await lockConn`select pg_advisory_lock(${MIGRATION_LOCK})`
    await migrate(drizzle(lockConn), { migrationsFolder: MIGRATIONS_FOLDER })
    await lockConn`select pg_advisory_unlock(${MIGRATION_LOCK})`
  } finally {
    await lockConn.end()
  }
  return {
    db,
    kind: 'postgres',
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.end({ timeout: 5 }),
  }
}
