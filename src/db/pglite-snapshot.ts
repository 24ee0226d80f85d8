// A migrated PGlite cluster: the initdb seed (pglite-seed.ts) with every migration applied,
// shipped as drizzle/pglite-seed/migrated-<pglite version>-<migrations hash>.tar.zst. Migrating a
// fresh cluster is most of a cold embedded start (docs/testing.md "Start time"); starting from
// this snapshot leaves the migrator nothing to do. Its name is its key: after a PGlite upgrade or
// a new or edited migration no snapshot matches, and a new database starts from the seed and runs
// every migration as before. `bun run db:snapshot` writes the current one; its test fails while
// it is missing or its schema differs from what migrating gives (test/db/pglite-snapshot.test.ts).
import { existsSync, readdirSync, statSync, truncateSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from './client.ts'
import { MIGRATIONS_FOLDER, migrationsHash } from './migrations.ts'
import { maintainRequestLogPartitions } from './request-log-partitions.ts'
import { pgliteVersion, SEED_DIR, seed } from './pglite-seed.ts'
import { trimWal } from './snapshot-wal.ts'

export const SNAPSHOT_PREFIX = 'migrated-'

export function snapshotPath(migrationsFolder = MIGRATIONS_FOLDER): string {
  return join(SEED_DIR, `${SNAPSHOT_PREFIX}${pgliteVersion()}-${migrationsHash(migrationsFolder)}.tar.zst`)
}

/** The snapshot (an uncompressed tar) made from exactly these migrations with the installed PGlite, if shipped. */
export async function snapshot(migrationsFolder = MIGRATIONS_FOLDER): Promise<Uint8Array | undefined> {
  const path = snapshotPath(migrationsFolder)
  return existsSync(path) ? Bun.zstdDecompress(await Bun.file(path).bytes()) : undefined
}

export interface StartingCluster {
  /** An uncompressed tar of a data directory (≈10 MB migrated, ≈40 MB the seed). */
  tar: Uint8Array
  /** True for the migrated snapshot (migrating it is a no-op); false for the initdb seed. */
  migrated: boolean
}

/** What a new embedded database starts from: the current snapshot, else the seed, else nothing (PGlite runs initdb). */
export async function startingCluster(migrationsFolder = MIGRATIONS_FOLDER): Promise<StartingCluster | undefined> {
  const migrated = await snapshot(migrationsFolder)
  if (migrated) return { tar: migrated, migrated: true }
  const initdb = seed()
  return initdb ? { tar: Bun.gunzipSync(await initdb.bytes()), migrated: false } : undefined
}

/**
 * Unpacks the starting cluster into an empty data directory; undefined when the directory already
 * holds a cluster (or nothing is shipped). On disk, its WAL segments get their full size back: a
 * directory kept for months has the layout Postgres itself makes, the cut segment only saved
 * loading time in memory.
 */
export async function unpackCluster(dir: string, migrationsFolder = MIGRATIONS_FOLDER): Promise<StartingCluster | undefined> {
  if (existsSync(join(dir, 'PG_VERSION'))) return undefined
  const start = await startingCluster(migrationsFolder)
  if (!start) return undefined
  await new Bun.Archive(start.tar).extract(dir)
  fillWalSegments(join(dir, 'pg_wal'))
  return start
}

/** PGlite's WAL segment size (initdb's default). */
export const WAL_SEGMENT_BYTES = 16 * 1024 * 1024

function fillWalSegments(wal: string): void {
  for (const name of readdirSync(wal)) {
    const path = join(wal, name)
    if (/^[0-9A-F]{24}$/.test(name) && statSync(path).size < WAL_SEGMENT_BYTES) truncateSync(path, WAL_SEGMENT_BYTES)
  }
}

/**
 * The tar as PGlite's `loadDataDir` reads it (its `arrayBuffer()` and `type`, an uncompressed tar
 * when the type is empty): the bytes themselves, where a Blob would first copy all of them.
 */
export function tarBlob(tar: Uint8Array): Blob {
  const whole = tar.byteOffset === 0 && tar.byteLength === tar.buffer.byteLength
  const buffer = (whole ? tar.buffer : tar.slice().buffer) as ArrayBuffer
  return { type: '', size: tar.byteLength, arrayBuffer: async () => buffer } as Blob
}

/**
 * Drops template0 and template1 (15 MB of the 41 MB cluster). PGlite serves one database,
 * `postgres`, and opens no other; only CREATE DATABASE reads a template, and the gateway never
 * runs it (docs/testing.md "Start time").
 */
async function dropTemplates(pg: { exec(sql: string): Promise<unknown> }): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await pg.exec(`alter database ${name} is_template false`)
    await pg.exec(`drop database ${name}`)
  }
}

/** A new snapshot: the seed (or initdb) migrated in memory, checkpointed, as a zstd-compressed tar. */
export async function buildSnapshot(migrationsFolder = MIGRATIONS_FOLDER): Promise<Uint8Array> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  const initdb = seed()
  const pg = new PGlite({ loadDataDir: initdb && tarBlob(Bun.gunzipSync(await initdb.bytes())) })
  try {
    await migrate(drizzle(pg), { migrationsFolder })
    // A year of request_logs months made now: a start within it ensures its months without
    // creating one (docs/testing.md "Start time"); later starts create them as usual.
    await maintainRequestLogPartitions(drizzle(pg) as unknown as Db, Date.now(), { aheadMonths: 12, retentionDays: undefined })
    await dropTemplates(pg)
    // Every page on disk, so a start from the snapshot has no WAL to replay; the switch puts the
    // checkpoint on a fresh segment, which the tar keeps only up to its last written page.
    await pg.exec('checkpoint')
    await pg.query('select pg_switch_wal()')
    await pg.exec('checkpoint')
    const tar = await pg.dumpDataDir('none')
    return Bun.zstdCompressSync(trimWal(await tar.bytes()), { level: 19 })
  } finally {
    await pg.close()
  }
}
