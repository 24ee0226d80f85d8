// request_logs partitioned by month, on Postgres and PGlite: an existing table is converted with
// its rows; the runtime keeps this month and two ahead; rows land in their month (or the default
// partition when no month covers them, moved out when the month appears); the writer stays
// exactly-once across partitions; retention drops whole expired months and never the ledger;
// console log pages run across month boundaries.
import { afterAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyMovement, createUser } from '../../src/billing/accounts.ts'
import { writeRecords } from '../../src/billing/ledger-writer.ts'
import { encodeRecord, type OutboxRecord } from '../../src/billing/outbox-record.ts'
import { loadConfig } from '../../src/config.ts'
import { listLogs, logDetail } from '../../src/console/logs/service.ts'
import type { ConsoleDeps } from '../../src/console/deps.ts'
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../../src/db/client.ts'
import { maintainRequestLogPartitions, monthsToKeep, retentionCutoff } from '../../src/db/request-log-partitions.ts'
import { accounts, apiKeys, ledgerEntries, requestLogs } from '../../src/db/schema/index.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import { usageRecord } from '../helpers/records.ts'
import { freshDatabase, SERVICES } from '../helpers/services.ts'

const NOW = Date.UTC(2026, 10, 24, 12) // 2026-11-24, fixed so month arithmetic is checked exactly

const record = (u: { userId: string; keyId: string }, requestId: string, cost: string, at: number): OutboxRecord =>
  usageRecord({ requestId, userId: u.userId, keyId: u.keyId, cost, at })

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[]

async function partitionOf(db: Database['db'], requestId: string): Promise<string> {
  const [r] = rowsOf<{ p: string }>(await db.execute(sql`select tableoid::regclass::text as p from request_logs where id = ${requestId}`))
  return r!.p
}

async function partitions(db: Database['db']): Promise<string[]> {
  const rows = rowsOf<{ p: string }>(
    await db.execute(
      sql`select c.relname as p from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'request_logs'::regclass order by 1`,
    ),
  )
  return rows.map((r) => r.p)
}

describe('partition arithmetic', () => {
  test('months to keep are UTC month starts, across a year end; retention is whole days back', () => {
    expect(monthsToKeep(Date.UTC(2026, 11, 31, 23, 59), 2).map((d) => d.toISOString())).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
      '2027-02-01T00:00:00.000Z',
    ])
    expect(retentionCutoff(NOW, 30)?.toISOString()).toBe('2026-10-25T12:00:00.000Z')
    expect(retentionCutoff(NOW, undefined)).toBeUndefined()
  })

  test('REQUEST_LOG_RETENTION_DAYS: unset keeps everything; a whole number of days ≥ 1, else the variable is named', () => {
    expect(loadConfig({}).requestLogRetentionDays).toBeUndefined()
    expect(loadConfig({ REQUEST_LOG_RETENTION_DAYS: '90' }).requestLogRetentionDays).toBe(90)
    expect(() => loadConfig({ REQUEST_LOG_RETENTION_DAYS: '0' })).toThrow('REQUEST_LOG_RETENTION_DAYS must be between 1 and 36500')
    expect(() => loadConfig({ REQUEST_LOG_RETENTION_DAYS: '30d' })).toThrow('REQUEST_LOG_RETENTION_DAYS must be a whole number')
  })
})

for (const kind of (SERVICES ? ['postgres', 'pglite'] : ['pglite']) as ('postgres' | 'pglite')[]) {
  describe(`request_logs partitions on ${kind}`, () => {
    const cleanups: (() => Promise<void>)[] = []
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c()
    }, 60_000)

    /** A database migrated up to (not including) the partitioning migration, holding `rows` logs. */
    async function legacyDatabase(rows: { id: string; at: Date }[]): Promise<Database> {
      const folder = await mkdtemp(join(tmpdir(), 'tg-mig-'))
      cleanups.push(() => rm(folder, { recursive: true, force: true }))
      await cp(MIGRATIONS_FOLDER, folder, { recursive: true })
      const journal = await Bun.file(join(folder, 'meta/_journal.json')).json()
      // Everything before the partitioning migration (found by name: merges renumber migrations).
      const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith('_request_logs_partitioned'))
      journal.entries = journal.entries.slice(0, at)
      await Bun.write(join(folder, 'meta/_journal.json'), JSON.stringify(journal))
      const insert = (exec: (q: string) => Promise<unknown>) =>
        Promise.all(
          rows.map((r) =>
            exec(
              `insert into request_logs (id, user_id, key_id, model, protocol, stream, status, usage_source, latency_ms, created_at) values ('${r.id}', 'usr_old', 'key_old', 'm', 'chat', false, 200, 'none', 1, '${r.at.toISOString()}')`,
            ),
          ),
        )
      if (kind === 'postgres') {
        const fresh = await freshDatabase()
        cleanups.push(fresh.drop)
        const postgres = (await import('postgres')).default
        const { drizzle } = await import('drizzle-orm/postgres-js')
        const { migrate } = await import('drizzle-orm/postgres-js/migrator')
        const client = postgres(fresh.url, { max: 1, onnotice: () => {} })
        await migrate(drizzle(client), { migrationsFolder: folder })
        await insert((q) => client.unsafe(q))
        await client.end()
        return openDatabase(fresh.url)
      }
      const dir = await mkdtemp(join(tmpdir(), 'tg-pglite-'))
      cleanups.push(() => rm(dir, { recursive: true, force: true }))
      const { PGlite } = await import('@electric-sql/pglite')
      const { drizzle } = await import('drizzle-orm/pglite')
      const { migrate } = await import('drizzle-orm/pglite/migrator')
      const client = new PGlite(dir)
      await migrate(drizzle(client), { migrationsFolder: folder })
      await insert((q) => client.query(q))
      await client.close()
      return openDatabase(`file:${dir}`)
    }

    async function fundedUser(database: Database) {
      const user = await createUser(database.db, `${crypto.randomUUID()}@test.local`, null)
      await applyMovement(database.db, createMemoryStore(), {
        userId: user.id,
        amountMicros: 10_000n,
        kind: 'adjustment',
        method: 'test',
        reference: `t:${user.id}`,
      })
      const keyId = `key_${crypto.randomUUID()}`
      await database.db.insert(apiKeys).values({ id: keyId, userId: user.id, keyHash: crypto.randomUUID(), prefix: 'sk-x' })
      return { userId: user.id, keyId }
    }

    async function books(database: Database, userId: string) {
      const [a] = await database.db.select().from(accounts).where(eq(accounts.userId, userId))
      const [s] = await database.db
        .select({ s: sql<string>`sum(${ledgerEntries.amountMicros})::text`, n: sql<number>`count(*)::int` })
        .from(ledgerEntries)
        .where(sql`${ledgerEntries.userId} = ${userId} and ${ledgerEntries.status} = 'completed'`)
      return { balance: a!.balanceMicros, sum: BigInt(s!.s), entries: s!.n }
    }

    test('upgrade keeps every row, each in its month; maintenance keeps this month and two ahead; retention drops whole old months but no ledger entry', async () => {
      const old = [
        { id: 'req_old_a', at: new Date(Date.UTC(2026, 7, 3)) },
        { id: 'req_old_b', at: new Date(Date.UTC(2026, 7, 31, 23, 59, 59)) },
        { id: 'req_old_c', at: new Date(Date.UTC(2026, 9, 1)) },
      ]
      const database = await legacyDatabase(old)
      cleanups.push(() => database.close())
      const { db } = database
      expect(await partitionOf(db, 'req_old_a')).toBe('request_logs_p202608')
      expect(await partitionOf(db, 'req_old_b')).toBe('request_logs_p202608')
      expect(await partitionOf(db, 'req_old_c')).toBe('request_logs_p202610')

      const report = await maintainRequestLogPartitions(db, NOW, { aheadMonths: 2, retentionDays: undefined })
      expect(report).toEqual({ ensured: ['request_logs_p202611', 'request_logs_p202612', 'request_logs_p202701'], dropped: [] })
      expect(await partitions(db)).toEqual(
        expect.arrayContaining(['request_logs_default', 'request_logs_p202608', 'request_logs_p202610', ...report.ensured]),
      )

      const u = await fundedUser(database)
      await writeRecords(db, [
        encodeRecord(record(u, 'req_aug', '100', Date.UTC(2026, 7, 15))),
        encodeRecord(record(u, 'req_nov', '50', NOW)),
      ])
      // 60 days: August ended 2026-09-01 < cutoff 2026-09-25, so it goes; October stays.
      const dropped = await maintainRequestLogPartitions(db, NOW, { aheadMonths: 2, retentionDays: 60 })
      expect(dropped.dropped).toEqual(['request_logs_p202608'])
      const ids = (await db.select({ id: requestLogs.id }).from(requestLogs)).map((r) => r.id).sort()
      expect(ids).toEqual(['req_nov', 'req_old_c'])
      // The ledger never loses rows: the usage entry of the batch (August's call among its two)
      // and the balance are untouched.
      expect(await books(database, u.userId)).toEqual({ balance: 9_850n, sum: 9_850n, entries: 2 })
      expect((await maintainRequestLogPartitions(db, NOW, { aheadMonths: 2, retentionDays: 60 })).dropped).toEqual([])
    }, 60_000)

    test('writer: exactly once within, across and outside month partitions; the default partition empties into a new month', async () => {
      const database = await legacyDatabase([])
      cleanups.push(() => database.close())
      const { db } = database
      await maintainRequestLogPartitions(db, NOW, { aheadMonths: 1, retentionDays: undefined })
      const u = await fundedUser(database)
      const batch = [
        record(u, 'req_now', '100', NOW),
        record(u, 'req_next', '200', Date.UTC(2026, 11, 31, 23, 59, 59, 999)),
        record(u, 'req_far', '300', Date.UTC(2027, 5, 1)), // no partition yet: the default one
        record(u, 'req_past', '400', Date.UTC(2019, 0, 1)),
      ].map(encodeRecord)
      expect(await writeRecords(db, batch)).toBe(4)
      expect(await writeRecords(db, batch)).toBe(0)
      expect(await writeRecords(db, [batch[2]!, batch[0]!])).toBe(0)
      // The credit, and one usage entry for the four calls (docs/api.md "Ledger").
      expect(await books(database, u.userId)).toEqual({ balance: 9_000n, sum: 9_000n, entries: 2 })
      expect(await partitionOf(db, 'req_now')).toBe('request_logs_p202611')
      expect(await partitionOf(db, 'req_next')).toBe('request_logs_p202612')
      expect(await partitionOf(db, 'req_far')).toBe('request_logs_default')
      // Two instances creating the same month at once: one creates it, both get its name.
      const [a, b] = await Promise.all(
        [0, 1].map(() => maintainRequestLogPartitions(db, Date.UTC(2027, 5, 10), { aheadMonths: 0, retentionDays: undefined })),
      )
      expect(a!.ensured).toEqual(['request_logs_p202706'])
      expect(b!.ensured).toEqual(['request_logs_p202706'])
      expect(await partitionOf(db, 'req_far')).toBe('request_logs_p202706')
      expect(await writeRecords(db, [batch[2]!])).toBe(0)
      const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(requestLogs).where(eq(requestLogs.userId, u.userId))
      expect(n!.n).toBe(4)
    }, 60_000)

    test('console log pages walk newest first across month partitions; detail finds a log in any month', async () => {
      const database = await legacyDatabase([])
      cleanups.push(() => database.close())
      const { db } = database
      await maintainRequestLogPartitions(db, NOW, { aheadMonths: 0, retentionDays: undefined })
      const u = await fundedUser(database)
      const ats = [Date.UTC(2026, 8, 30, 23), Date.UTC(2026, 9, 1, 0, 0, 1), Date.UTC(2026, 9, 31), Date.UTC(2026, 10, 1), NOW]
      await writeRecords(
        db,
        ats.map((at, i) => encodeRecord(record(u, `req_page_${i}`, '1', at))),
      )
      const deps = { db } as unknown as ConsoleDeps
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const p = await listLogs(deps, u.userId, { limit: 2, cursor })
        seen.push(...p.items.map((i) => i.id))
        cursor = p.nextCursor ?? undefined
      } while (cursor)
      expect(seen).toEqual(['req_page_4', 'req_page_3', 'req_page_2', 'req_page_1', 'req_page_0'])
      expect((await logDetail(deps, u.userId, 'req_page_0')).createdAt).toBe('2026-09-30T23:00:00.000Z')
      expect(logDetail(deps, 'usr_other', 'req_page_0')).rejects.toThrow('No such request log')
    }, 60_000)
  })
}

describe('runtime keeps the partitions', () => {
  test('a starting instance creates this month and the next two (PGlite)', async () => {
    const { startTestGateway, simpleCatalog } = await import('../helpers/gateway.ts')
    const gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      REQUEST_LOG_RETENTION_DAYS: '400',
    })
    try {
      const now = new Date()
      const months = [0, 1, 2].map((i) => {
        const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1))
        return `request_logs_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`
      })
      expect(await partitions(gw.runtime.deps.db)).toEqual(expect.arrayContaining(months))
    } finally {
      await gw.stop()
    }
  }, 60_000)
})
