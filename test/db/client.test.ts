// openDatabase on a real Postgres: the migrations applied once however many instances start
// together (advisory lock), ping answering, and an unreachable server failing at start.
import { afterAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../../src/db/client.ts'
import { describeServices, freshDatabase } from '../helpers/services.ts'

const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }

describeServices('openDatabase (Postgres)', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  }, 60_000)

  test('three instances starting at once on an empty database migrate it once, and all work', async () => {
    const fresh = await freshDatabase()
    cleanups.push(fresh.drop)
    const dbs: Database[] = await Promise.all([0, 1, 2].map(() => openDatabase(fresh.url)))
    cleanups.push(async () => void (await Promise.all(dbs.map((d) => d.close()))))
    expect(dbs.map((d) => d.kind)).toEqual(['postgres', 'postgres', 'postgres'])
    const applied = (await dbs[0]!.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as {
      n: number
    }[]
    expect(applied[0]!.n).toBe(journal.entries.length)
    for (const d of dbs) await d.ping()
    // a later start finds nothing to apply
    const later = await openDatabase(fresh.url)
    const again = (await later.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { n: number }[]
    expect(again[0]!.n).toBe(journal.entries.length)
    await later.close()
  })

  test('after close, ping fails', async () => {
    const fresh = await freshDatabase()
    cleanups.push(fresh.drop)
    const d = await openDatabase(fresh.url)
    await d.close()
    await expect(d.ping()).rejects.toThrow()
  })
})

describe('openDatabase (unreachable)', () => {
  test('a server nobody listens on fails the start with the socket’s code', async () => {
    const gone = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const port = gone.port
    gone.stop(true)
    const err = (await openDatabase(`postgres://nobody@127.0.0.1:${port}/none`).catch((e: unknown) => e)) as { code?: string }
    expect(err.code).toBe('ECONNREFUSED')
  })
})
