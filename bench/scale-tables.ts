// `bun bench/scale-tables.ts`: the tables after years of traffic (docs/scaling.md). In a scratch
// database it generates SCALE_ROWS (default 10,000,000) request logs and as many ledger entries
// with SQL, then measures the console's page queries (p50/p99 over many users and cursors,
// target p99 < 10 ms), prints each query's EXPLAIN plan, and measures the ledger writer's insert
// rate into the full tables (1 and 3 concurrent writers). Not a test; the scratch database is
// dropped at the end (SCALE_KEEP=1 keeps it for exploring).
import postgres from 'postgres'
import { drizzle } from 'drizzle-orm/postgres-js'
import { loadavg } from 'node:os'
import { writeRecords } from '../src/billing/ledger-writer.ts'
import { encodeRecord } from '../src/billing/outbox-record.ts'
import { openDatabase, type Db } from '../src/db/client.ts'
import * as schema from '../src/db/schema/index.ts'
import { generate } from './scale/generate.ts'
import { cases, explain, fixtures, time } from './scale/queries.ts'

const ROWS = Number(process.env.SCALE_ROWS ?? 10_000_000)
const USERS = Number(process.env.SCALE_USERS ?? 10_000)
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const log = (s: string) => console.log(s)
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

/** Batches of `batch` settlement records for random generated users, written by `writers` at once. */
async function writerRate(db: Db, writers: number, batches: number, batch: number): Promise<{ rate: number; deadlocks: number }> {
  const t0 = performance.now()
  let n = 0
  let deadlocks = 0
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let b = 0; b < batches; b++) {
        const records = Array.from({ length: batch }, (_, i) => {
          const u = 1 + (((w * 1_000_003 + b * batch + i) * 7919) % (USERS - 1))
          return encodeRecord({
            v: 1,
            requestId: `req_w${writers}_${w}_${b}_${i}`,
            userId: `usr_${u}`,
            keyId: `key_${u}_0`,
            model: 'acme/model-1',
            gateway: 'gw-a',
            protocol: 'chat',
            stream: false,
            status: 200,
            errorCode: null,
            usageSource: 'upstream',
            latencyMs: 250,
            at: Date.now(),
            cost: '123',
            usage: { inputTokens: 500, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
          })
        })
        // Concurrent writers can deadlock on the same accounts rows (40P01): Postgres aborts one
        // batch, which the real writer leaves for redelivery. Here it is counted and retried.
        for (;;) {
          try {
            n += await writeRecords(db, records)
            break
          } catch (e) {
            if (!String((e as { cause?: { code?: string } }).cause?.code ?? e).includes('40P01')) throw e
            deadlocks++
          }
        }
      }
    }),
  )
  return { rate: n / ((performance.now() - t0) / 1000), deadlocks }
}

async function main() {
  const name = `tg_scale_${Date.now().toString(36)}`
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
    log(`generating ${ROWS.toLocaleString()} request logs + ${ROWS.toLocaleString()} ledger entries for ${USERS} users (load ${load()})`)
    const g0 = performance.now()
    await generate(sql, ROWS, USERS, log)
    const [size] =
      await sql`select pg_size_pretty(pg_total_relation_size('ledger_entries')) as ledger, (select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) from pg_inherits where inhparent = 'request_logs'::regclass) as logs`
    log(
      `generated in ${((performance.now() - g0) / 1000).toFixed(0)} s; ledger_entries ${size!.ledger}, request_logs ${size!.logs} (tables + indexes)`,
    )

    const f = await fixtures(sql, USERS, ROWS)
    const all = cases(db, f)
    log(`\n| query | n | p50 ms | p99 ms | max ms | p99 < 10 ms |\n|---|--:|--:|--:|--:|:-:|`)
    for (const c of all) {
      const t = await time(c, Number(process.env.SCALE_N ?? 500), 50)
      log(`| ${t.name} | ${t.n} | ${t.p50.toFixed(2)} | ${t.p99.toFixed(2)} | ${t.max.toFixed(2)} | ${t.p99 < 10 ? 'yes' : 'no'} |`)
    }
    log(`(load average during queries: ${load()})`)
    log('\n## plans')
    for (const c of all) log(`\n### ${c.name}\n\n\`\`\`\n${(await explain(sql, captured, c)).join('\n--\n')}\n\`\`\``)
    for (const w of [1, 3]) {
      const { rate, deadlocks } = await writerRate(db, w, w === 1 ? 100 : 40, 500)
      log(
        `writer insert rate, ${w} writer(s), batches of 500: ${rate.toFixed(0)} records/s (each = 1 log row + 1 ledger row + balance/key updates), ${deadlocks} deadlocks retried; load ${load()}`,
      )
    }
    await sql.end()
  } finally {
    if (process.env.SCALE_KEEP !== '1') await admin.unsafe(`drop database if exists ${name} with (force)`)
    else log(`kept database ${name}`)
    await admin.end()
  }
}

await main()
