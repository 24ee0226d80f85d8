// `bun bench/writer-cpu.ts`: the Postgres CPU the ledger writer's statement costs per call, read
// from the backend that runs it (utime + stime of pg_backend_pid() in /proc), so other work on a
// shared machine moves it little. In a scratch database (migrated by this tree), WRITER_USERS
// users (default 4) with a key each; WRITER_BATCHES batches (default 200) of WRITER_BATCH
// records (default 250, as under saturation) — every call answered and charged, spread over the
// users — written one after another, as one writer does; the first 20 batches warm up. Prints
// µs of backend CPU per call, the median of WRITER_ROUNDS (default 5) rounds. Not a test; the
// scratch database is dropped at the end.
import postgres from 'postgres'
import { writeRecords } from '../src/billing/ledger-writer.ts'
import { encodeRecord } from '../src/billing/outbox-record.ts'
import { openDatabase } from '../src/db/client.ts'

const USERS = Number(process.env.WRITER_USERS ?? 4)
const BATCHES = Number(process.env.WRITER_BATCHES ?? 200)
const BATCH = Number(process.env.WRITER_BATCH ?? 250)
const ROUNDS = Number(process.env.WRITER_ROUNDS ?? 5)
const WARM = 20
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const TICK_US = 1_000_000 / 100 // USER_HZ

async function backendCpuUs(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text()
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * TICK_US
}

const name = `tg_wcpu_${Date.now().toString(36)}`
const admin = postgres(PG, { max: 1, onnotice: () => {} })
await admin.unsafe(`create database ${name}`)
const url = new URL(PG)
url.pathname = `/${name}`
try {
  const database = await openDatabase(url.toString())
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
  await sql`insert into users (id, email) select 'usr_' || u, 'u' || u || '@bench.local' from generate_series(0, ${USERS - 1}) u`
  await sql`insert into accounts (user_id, balance_micros) select 'usr_' || u, 1000000000000 from generate_series(0, ${USERS - 1}) u`
  await sql`insert into api_keys (id, user_id, key_hash, prefix) select 'key_' || u, 'usr_' || u, md5(u::text), 'sk-b' from generate_series(0, ${USERS - 1}) u`
  await sql.end()
  const db = database.db
  // Every backend of the scratch database (the pool's connections; the admin connection is elsewhere).
  const backends = async () => (await admin`select pid from pg_stat_activity where datname = ${name}`).map((r) => Number(r.pid))
  let seq = 0
  const batch = () =>
    Array.from({ length: BATCH }, () => {
      const u = seq % USERS
      return encodeRecord({
        v: 1,
        requestId: `req_${seq++}`,
        userId: `usr_${u}`,
        keyId: `key_${u}`,
        model: 'acme/model-1',
        gateway: 'gw-a',
        protocol: 'chat',
        stream: false,
        status: 200,
        errorCode: null,
        usageSource: 'upstream',
        latencyMs: 12,
        at: Date.now(),
        cost: '123',
        usage: { inputTokens: 500, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      })
    })
  const perCall: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < WARM; i++) await writeRecords(db, batch())
    const pids = await backends()
    const before = new Map<number, number>()
    for (const p of pids) before.set(p, await backendCpuUs(p))
    for (let i = 0; i < BATCHES; i++) await writeRecords(db, batch())
    let used = 0
    for (const p of pids) used += (await backendCpuUs(p)) - before.get(p)!
    perCall.push(used / (BATCHES * BATCH))
  }
  perCall.sort((a, b) => a - b)
  console.log(
    `writer statement, Postgres backend CPU per call: median ${perCall[perCall.length >> 1]!.toFixed(1)} µs (rounds: ${perCall.map((v) => v.toFixed(1)).join(', ')}); ${USERS} users, batches of ${BATCH}`,
  )
  await database.close()
} finally {
  await admin.unsafe(`drop database if exists ${name} with (force)`)
  await admin.end()
}
