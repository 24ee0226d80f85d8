// `bun bench/scale-indexes.ts`: the plan of every query that reads request_logs or ledger_entries
// (docs/scaling.md "Indexes and the queries they serve"), on the generated tables of
// bench/scale-tables.ts (SCALE_ROWS, default 10,000,000 of each), twice: with the indexes the
// migrations leave now ("after") and with the index set before them ("before", rebuilt in
// place). Prints each query's EXPLAIN (ANALYZE, BUFFERS) and the indexes' sizes. Not a test; the
// scratch database is dropped at the end.
import { and, eq, inArray } from 'drizzle-orm'
import postgres from 'postgres'
import { drizzle } from 'drizzle-orm/postgres-js'
import { periodSpent } from '../src/billing/period-spend.ts'
import { recentTraffic } from '../src/admin/gateways/traffic.ts'
import { moneyByDay } from '../src/admin/reports/queries.ts'
import { parsePeriod } from '../src/admin/reports/period.ts'
import { popularity } from '../src/console/catalog/service.ts'
import type { ConsoleDeps } from '../src/console/deps.ts'
import { listLogs } from '../src/console/logs/service.ts'
import { openDatabase, type Db } from '../src/db/client.ts'
import * as schema from '../src/db/schema/index.ts'
import { generate } from './scale/generate.ts'
import { type Case, cases as consoleCases, explain, fixtures } from './scale/queries.ts'

const ROWS = Number(process.env.SCALE_ROWS ?? 10_000_000)
const USERS = Number(process.env.SCALE_USERS ?? 10_000)
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const log = (s: string) => console.log(s)

/** The index set before migration 0015 (0005, 0006, 0011), rebuilt for the "before" plans. */
const BEFORE = [
  'drop index request_logs_created_brin',
  'drop index ledger_user_kind_created_idx',
  'drop index ledger_user_status_created_idx',
  'drop index ledger_kind_completed_idx',
  'create index request_logs_model_created_idx on request_logs (model, created_at)',
  'create index request_logs_created_idx on request_logs (created_at)',
  'create index ledger_user_kind_created_idx on ledger_entries (user_id, kind, created_at, id)',
  'create index ledger_user_status_created_idx on ledger_entries (user_id, status, created_at, id)',
  "create index ledger_kind_completed_idx on ledger_entries (kind, completed_at) where status = 'completed'",
  'analyze',
]
// (maintenance_work_mem is set for the session before these run.)

const month = new Date()
const monthStart = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1))

/** The queries beyond the console's pages (bench/scale/queries.ts): spend, mirror, refunds, reports, retention. */
function moreCases(db: Db, sql: postgres.Sql, whaleLogIds: string[], entryId: string): Case[] {
  const deps = { db, now: () => Date.now() } as unknown as ConsoleDeps
  const ids = whaleLogIds.slice(0, 100)
  return [
    {
      name: 'calls of a usage entry (GET /api/logs?transactionId=)',
      run: () => listLogs(deps, 'usr_0', { limit: 20, transactionId: entryId }),
    },
    { name: "a key's spend this month (whale key, period-spend.ts)", run: () => periodSpent(db, 'usr_0', ['key_0_1'], monthStart) },
    {
      name: 'mirror reload: which outbox calls are written (100 ids)',
      run: () => db.select({ id: schema.requestLogs.id }).from(schema.requestLogs).where(sqlIn(ids)),
    },
    {
      name: 'refund of one call: its log by id',
      run: (i) => sql`select cost_micros, ledger_entry_id, user_id from request_logs where id = ${ids[i % ids.length]!}`,
    },
    { name: 'gateway traffic, last 60 minutes (admin)', run: () => recentTraffic(db, Date.now()) },
    { name: 'catalog popularity, last 7 days', run: () => popularity(deps)() },
    {
      name: 'report: money by day, one month (admin reports)',
      run: () =>
        moneyByDay(
          db,
          parsePeriod(new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10), new Date().toISOString().slice(0, 10)),
        ),
    },
    {
      name: 'retention: rows of the default partition before the cutoff',
      run: () => sql`select count(*) from request_logs_default where created_at < now() - interval '90 days'`,
    },
  ]
}

const sqlIn = (ids: string[]) => and(eq(schema.requestLogs.userId, 'usr_0'), inArray(schema.requestLogs.id, ids))

async function sizes(sql: postgres.Sql): Promise<string> {
  const rows = await sql`
    select coalesce(p.relname, c.relname) as index, pg_size_pretty(sum(pg_relation_size(c.oid))) as size
    from pg_class c join pg_index i on i.indexrelid = c.oid join pg_class t on t.oid = i.indrelid
    left join pg_inherits h on h.inhrelid = c.oid left join pg_class p on p.oid = h.inhparent
    where t.relname in ('ledger_entries') or t.relname like 'request_logs%'
    group by 1 order by 1`
  return rows.map((r) => `| ${r.index} | ${r.size} |`).join('\n')
}

async function plans(sql: postgres.Sql, captured: { query: string; params: unknown[] }[], all: Case[], label: string) {
  log(`\n## ${label}\n\n| index | size |\n|---|--:|\n${await sizes(sql)}`)
  for (const c of all) log(`\n### ${label}: ${c.name}\n\n\`\`\`\n${(await explain(sql, captured, c)).join('\n--\n')}\n\`\`\``)
}

async function main() {
  const name = `tg_idx_${Date.now().toString(36)}`
  const admin = postgres(PG, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  const url = new URL(PG)
  url.pathname = `/${name}`
  try {
    await (await openDatabase(url.toString())).close() // migrations
    const captured: { query: string; params: unknown[] }[] = []
    const sql = postgres(url.toString(), {
      max: 4,
      onnotice: () => {},
      debug: (_c, query, params) => void captured.push({ query, params }),
    })
    const db = drizzle(sql, { schema }) as unknown as Db
    const g0 = performance.now()
    // Loaded without the secondary indexes, which are built afterwards: on this shared machine
    // inserting 10 M rows into six indexes each took hours.
    const secondary = await sql`
      select indexname, indexdef from pg_indexes
      where tablename in ('request_logs', 'ledger_entries') and indexname not like '%pkey' and indexname not like '%_pk' and indexname not like '%unique'`
    for (const i of secondary) await sql.unsafe(`drop index ${i.indexname}`)
    await generate(sql, ROWS, USERS, log)
    await sql`set maintenance_work_mem = '256MB'`
    for (const i of secondary) await sql.unsafe(String(i.indexdef).replace(' ON ONLY ', ' ON '))
    // One usage entry of the new kind: a whale's second of calls, named by their logs.
    const [span] =
      await sql`select min(created_at) as lo from request_logs where user_id = 'usr_0' and created_at > now() - interval '3 days'`
    const [tagged] = await sql`
      with t as (update request_logs set ledger_entry_id = 'txn_u_bench_usr_0'
                 where user_id = 'usr_0' and created_at between ${span!.lo} and ${span!.lo}::timestamptz + interval '1 hour' returning cost_micros, created_at)
      select count(*)::int as n, coalesce(sum(cost_micros), 0)::bigint as cost, min(created_at) as lo, max(created_at) as hi from t`
    await sql`insert into ledger_entries (id, user_id, kind, status, amount_micros, method, reference, meta, created_at, completed_at)
      values ('txn_u_bench_usr_0', 'usr_0', 'usage', 'completed', ${(-BigInt(tagged!.cost)).toString()}, 'api', 'usage:bench:usr_0',
        ${JSON.stringify({ calls: tagged!.n, from: tagged!.lo, to: tagged!.hi })}::jsonb, now(), now())`
    await sql`analyze`
    log(`generated in ${((performance.now() - g0) / 1000).toFixed(0)} s; entry of ${tagged!.n} calls`)
    const f = await fixtures(sql, USERS, ROWS)
    const all = [...consoleCases(db, f), ...moreCases(db, sql, f.whaleLogIds, 'txn_u_bench_usr_0')]
    await plans(sql, captured, all, 'after (migration 0015)')
    for (const s of BEFORE) await sql.unsafe(s)
    await plans(sql, captured, all, 'before (indexes of 0005, 0006, 0011)')
    await sql.end()
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}

await main()
