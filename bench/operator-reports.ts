// `bun bench/operator-reports.ts` (docs/operators.md "Reports: measured"): a fresh Postgres
// database with REPORT_ROWS (default 10 000 000) synthetic request_logs rows over the last 30 days
// (REPORT_USERS users, 20 models, 3 gateways), the report rollups built from them as the ledger
// writer builds them, then the 30-day summary and daily reports and the gateways view's hourly
// read, each timed (best and median of 5). Needs PG_ADMIN_URL or the local test server.
import postgres from 'postgres'
import { sql } from 'drizzle-orm'
import { dailyReport } from '../src/admin/reports/daily.ts'
import { parsePeriod } from '../src/admin/reports/period.ts'
import { summaryReport } from '../src/admin/reports/summary.ts'
import { recentTraffic } from '../src/admin/gateways/traffic.ts'
import { openDatabase } from '../src/db/client.ts'
import { maintainRequestLogPartitions } from '../src/db/request-log-partitions.ts'

const ROWS = Number(process.env.REPORT_ROWS ?? 10_000_000)
const USERS = Number(process.env.REPORT_USERS ?? 2_000)
const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const DAY_MS = 86_400_000

const name = `tg_bench_reports_${Date.now()}`
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
await admin.unsafe(`create database ${name}`)
const url = new URL(ADMIN_URL)
url.pathname = `/${name}`
const database = await openDatabase(url.toString())
const db = database.db
const now = Date.now()
const today = new Date(now).toISOString().slice(0, 10)
const from = new Date(Date.parse(today) - 29 * DAY_MS).toISOString().slice(0, 10)
const to = new Date(Date.parse(today) + DAY_MS).toISOString().slice(0, 10)

const timed = async <T>(label: string, run: () => Promise<T>) => {
  const t0 = performance.now()
  const out = await run()
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return out
}

try {
  await maintainRequestLogPartitions(db, now - 31 * DAY_MS, { aheadMonths: 2, retentionDays: undefined })
  await timed(`insert ${ROWS.toLocaleString()} request_logs rows`, () =>
    db.execute(
      sql.raw(`
insert into request_logs (id, user_id, key_id, model, gateway, protocol, stream, status, input_tokens, output_tokens,
  cost_micros, usage_source, latency_ms, created_at)
select 'req_' || g, 'usr_' || (g % ${USERS}), 'key_' || (g % ${USERS}), 'acme/model-' || (g % 20), 'gw-' || (g % 3), 'chat',
  false, case when g % 97 = 0 then 502 else 200 end, 200 + g % 800, 50 + g % 400, 100 + g % 5000, 'upstream',
  50 + (g::bigint * 7919) % 3000, to_timestamp(${now / 1000} - (g::float8 / ${ROWS}) * ${30 * 86_400})
from generate_series(1, ${ROWS}) g`),
    ),
  )
  // The rollups as the ledger writer keeps them (billing/ledger-batch.ts), built here in one go.
  await timed('build request_daily and latency_daily', async () => {
    await db.execute(sql`insert into request_daily select (created_at at time zone 'UTC')::date, user_id, model, coalesce(gateway, ''),
      count(*), count(*) filter (where status >= 500), sum(cost_micros), sum(input_tokens), sum(output_tokens),
      sum(cache_read_tokens), sum(cache_write_tokens) from request_logs group by 1, 2, 3, 4`)
    await db.execute(sql`insert into latency_daily select (created_at at time zone 'UTC')::date, model, latency_bucket(latency_ms), count(*)
      from request_logs group by 1, 2, 3`)
    await db.execute(sql`analyze`)
  })
  const period = parsePeriod(from, to)
  for (const [label, run] of [
    ['summary, 30 days', () => summaryReport(db, period)],
    ['daily, 30 days', () => dailyReport(db, period)],
    ['gateways view traffic, last hour', () => recentTraffic(db, now)],
  ] as const) {
    const ms: number[] = []
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      await run()
      ms.push(performance.now() - t0)
    }
    ms.sort((a, b) => a - b)
    console.log(`${label}: best ${ms[0]!.toFixed(0)} ms, median ${ms[2]!.toFixed(0)} ms`)
  }
  const [rollup] = (await db.execute(sql`select count(*)::int as n from request_daily`)) as unknown as [{ n: number }]
  console.log(`request_daily rows: ${rollup?.n}`)
} finally {
  await database.close()
  await admin.unsafe(`drop database if exists ${name} with (force)`)
  await admin.end()
}
