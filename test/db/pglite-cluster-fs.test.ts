// PGlite's in-memory file system holding a cluster's tar (src/db/pglite-cluster-fs.ts): Postgres
// starts on the data directory as written, whether the tar names each directory before or after
// its files, and writes to it.
import { expect, test } from 'bun:test'
import { PGlite } from '@electric-sql/pglite'
import { ClusterFS } from '../../src/db/pglite-cluster-fs.ts'
import { startingCluster } from '../../src/db/pglite-snapshot.ts'
import { TAR_BLOCK, padded, tarEntries } from '../../src/db/tar.ts'

/** The same entries with every file before every directory (each file's directory named after it). */
function filesFirst(tar: Uint8Array): Uint8Array {
  const entries = tarEntries(tar)
  const ordered = [...entries.filter((e) => !e.directory), ...entries.filter((e) => e.directory)]
  const bytes = ordered.map((e) => tar.subarray(e.at, e.at + TAR_BLOCK + padded(e.size)))
  return new Uint8Array(Buffer.concat([...bytes, new Uint8Array(2 * TAR_BLOCK)]))
}

async function tables(pg: PGlite): Promise<number> {
  const r = await pg.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`)
  return r.rows[0]!.n
}

test('a database on the snapshot: the migrated schema is there, and it takes writes', async () => {
  const start = (await startingCluster())!
  expect(start.migrated).toBe(true)
  const pg = new PGlite({ fs: new ClusterFS(start.tar) })
  try {
    expect(await tables(pg)).toBeGreaterThan(10)
    await pg.exec(`insert into users (id, email) values ('usr_fs', 'fs@test.local')`)
    expect((await pg.query<{ email: string }>(`select email from users where id = 'usr_fs'`)).rows).toEqual([{ email: 'fs@test.local' }])
  } finally {
    await pg.close()
  }
}, 60_000)

test('a tar naming directories after their files gives the same database', async () => {
  const start = (await startingCluster())!
  const whole = new PGlite({ fs: new ClusterFS(start.tar.slice()) })
  const files = new PGlite({ fs: new ClusterFS(filesFirst(start.tar)) })
  try {
    expect(await tables(files)).toBe(await tables(whole))
  } finally {
    await whole.close()
    await files.close()
  }
}, 60_000)
