// The processes a benchmark run measures: the fake upstream, the bare proxy and Tollgate on a
// throwaway Postgres database and its own Redis prefix, with a seeded user, credit and keys.
// Everything started here is killed, and the database dropped, by `cleanup()`.
import postgres from 'postgres'
import Redis from 'ioredis'
import { cpus } from 'node:os'
import type { Target } from './driver.ts'
import { outboxDepth } from './sut-metrics.ts'
import { readStores, type StoreReading } from './store-cost.ts'

const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const SHARED_REDIS = 'redis://127.0.0.1:6379'
const ADMIN = 'bench-admin-token-0123456789abcdef'
const ROOT = new URL('..', import.meta.url).pathname

/**
 * Concurrent requests one Bun process's fetch() sends at once (Bun's default is 256; the rest
 * queue). Read once at process start, so it is set in the environment of every process started
 * here — the load generator (run.ts re-executes itself with it) and Tollgate's upstream calls.
 */
export const MAX_HTTP_REQUESTS = '16384'

export const pinned = Boolean(Bun.which('taskset')) && cpus().length >= 2
/** Load generator + fake upstream on CPU 1, each system under test on CPU 0. */
export const pin = (cpu: number, cmd: string[]) => (pinned ? ['taskset', '-c', String(cpu), ...cmd] : cmd)

/** A directory: Tollgate runs under `bun --cpu-prof-md` and writes its profile there on exit. */
const PROFILE_DIR = process.env.BENCH_CPU_PROF
const children: Bun.Subprocess[] = []
let tollgate: Bun.Subprocess | undefined
let dropDb: (() => Promise<void>) | undefined
const REDIS_PREFIX = `tgbench${process.pid}:`
let redis: Redis | undefined
/** The bench started its own redis-server (killed with the other children, keys and all). */
let ownRedis = false
const catalogPath = `/tmp/tollgate-bench-catalog-${process.pid}.json`

let cleaning: Promise<void> | undefined
/** Once, however often called (the SIGINT handler and the run's end may both ask). */
export const cleanup = (): Promise<void> => (cleaning ??= stopAll())

async function stopAll(): Promise<void> {
  if (PROFILE_DIR && tollgate) {
    // A profile is written on a clean exit only: stop Tollgate gracefully first.
    tollgate.kill('SIGTERM')
    await Promise.race([tollgate.exited, Bun.sleep(20_000)])
    console.error(`Tollgate CPU profile (markdown) in ${PROFILE_DIR}`)
  }
  tollgate = undefined
  if (redis && ownRedis) {
    redis.disconnect()
    redis = undefined
  }
  for (const c of children) c.kill('SIGKILL')
  await Promise.all(children.map((c) => c.exited))
  children.length = 0
  await dropDb?.()
  dropDb = undefined
  if (redis) {
    // The run's Redis keys go with it.
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 1000)
      cursor = next
      if (keys.length > 0) await redis.unlink(...keys)
    } while (cursor !== '0')
    redis.disconnect()
    redis = undefined
  }
  await Bun.file(catalogPath)
    .delete()
    .catch(() => {})
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  for (;;) if ((await reader.read()).done) return
}

async function spawnReady(
  cmd: string[],
  env: Record<string, string>,
  ready: RegExp,
  from: 'stdout' | 'stderr',
): Promise<{ proc: Bun.Subprocess; match: RegExpExecArray }> {
  const proc = Bun.spawn(cmd, {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: MAX_HTTP_REQUESTS, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    cwd: ROOT,
  })
  children.push(proc)
  // The other output is drained from the start and the ready one after the match: a child
  // writing to a full pipe nobody reads would block (Bun writes to a pipe synchronously).
  void drain((from === 'stdout' ? proc.stderr : proc.stdout).getReader())
  const reader = (from === 'stdout' ? proc.stdout : proc.stderr).getReader()
  const dec = new TextDecoder()
  let text = ''
  const timeout = setTimeout(() => proc.kill(), 30_000)
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${cmd.join(' ')} exited before ready:\n${text}`)
    text += dec.decode(value)
    const m = ready.exec(text)
    if (m) {
      clearTimeout(timeout)
      void drain(reader)
      return { proc, match: m }
    }
  }
}

const model = (id: string, upstreamModel: string) => ({
  id,
  name: id,
  provider: 'bench',
  contextWindow: 128_000,
  capabilities: ['text'],
  pricing: { input: 0.15, output: 0.6 },
  routes: [{ gateway: 'bench', model: upstreamModel }],
})

export interface Stack {
  upstream: string
  /** The Redis the run uses; each Tollgate's keys start with `keyPrefix` (a variant's with `<keyPrefix><name>:`). */
  redisUrl: string
  keyPrefix: string
  tgUrl: string
  /** Tollgate's event-loop delay side channel (bench/loop-delay-preload.ts). */
  loopUrl: string
  /** Records waiting in Tollgate's ledger outbox. */
  outboxDepth: () => Promise<number>
  targets: { direct: Target; bare: Target; tollgate: Target }
  pids: { direct: number; bare: number; tollgate: number }
  /** A fresh API key of the seeded user (each part of the run gets its own rate window). */
  newKey(): Promise<string>
  /** The stores' CPU time and Redis command counts so far (store-cost.ts). */
  readStores(): Promise<StoreReading>
  /** Pins the Postgres backends serving Tollgate's database to CPU 1, off Tollgate's core. */
  pinBackends(): Promise<void>
}

/** A TCP port free right now on 127.0.0.1. */
function freePort(): number {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}

/**
 * The Redis the run measures: BENCH_REDIS_URL, else a redis-server of its own pinned to CPU 1
 * (off Tollgate's core; its CPU time and command counts are the run's alone), else the local one.
 */
async function benchRedis(): Promise<string> {
  const given = process.env.BENCH_REDIS_URL
  if (given || !Bun.which('redis-server')) return given ?? SHARED_REDIS
  const port = freePort()
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp']
  await spawnReady(pin(1, ['redis-server', ...args]), {}, /Ready to accept connections/, 'stdout')
  ownRedis = true
  return `redis://127.0.0.1:${port}`
}

/** `slowStream`: the upstream of `bench/chat-slow` sends one delta every `intervalMs`, `deltas` times. */
export async function startStack(opts: { slowStream: { intervalMs: number; deltas: number } }): Promise<Stack> {
  const fake = await spawnReady(pin(1, [process.execPath, 'bench/fake-upstream.ts', '0']), {}, /READY (\d+)/, 'stdout')
  const upstream = `http://127.0.0.1:${fake.match[1]}`
  const bare = await spawnReady(pin(0, [process.execPath, 'bench/bare-proxy.ts', '0', `${upstream}/v1`]), {}, /READY (\d+)/, 'stdout')

  const redisUrl = await benchRedis()
  const dbName = `tg_bench_${Date.now()}`
  const admin = postgres(PG, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${dbName}`)
  await admin.end()
  dropDb = async () => {
    const a = postgres(PG, { max: 1, onnotice: () => {} })
    await a.unsafe(`drop database if exists ${dbName} with (force)`)
    await a.end()
  }
  const dbUrl = new URL(PG)
  dbUrl.pathname = `/${dbName}`
  const { intervalMs, deltas } = opts.slowStream
  await Bun.write(
    catalogPath,
    JSON.stringify({
      gateways: [{ id: 'bench', protocol: 'openai-chat', baseUrl: `${upstream}/v1`, timeoutMs: 30_000 }],
      models: [
        model('bench/chat', 'bench-model'),
        model('bench/chat-20ms', 'bench-model-20ms'),
        model('bench/chat-slow', `bench-model-pace${intervalMs}x${deltas}`),
        { ...model('bench/embed', 'bench-embed'), kind: 'embedding', contextWindow: 8_192, pricing: { input: 0.02 } },
      ],
    }),
  )
  const profile = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${PROFILE_DIR}`] : []
  tollgateEnv = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX,
    CATALOG_FILE: catalogPath,
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'warn',
    // A setting to compare (docs/benchmarks.md "Running it"): e.g. {"REDIS_URL":""} for the in-process store.
    ...(JSON.parse(process.env.BENCH_SUT_ENV ?? '{}') as Record<string, string>),
  }
  const tg = await spawnTollgate(ROOT, tollgateEnv, profile)
  tollgate = tg.proc
  const tgUrl = tg.url
  const loopUrl = tg.loopUrl
  const bench = new Redis(redisUrl)
  redis = bench
  const adminHeaders = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }
  const adminPost = async (path: string, body: object) => {
    const res = await fetch(`${tgUrl}/api/admin${path}`, { method: 'POST', headers: adminHeaders, body: JSON.stringify(body) })
    if (!res.ok) throw new Error(`POST /api/admin${path}: HTTP ${res.status} ${await res.text()}`)
    return res.json() as Promise<Record<string, unknown>>
  }
  const user = (await adminPost('/users', { email: 'bench@tollgate.local' })) as { id: string }
  // Each call costs a few micro-USD: enough for a long soak at several thousand RPS.
  await adminPost(`/users/${user.id}/credits`, { amount: 10_000 })
  const newKey = async () => ((await adminPost('/keys', { userId: user.id, rpm: 1_000_000 })) as { key: string }).key
  const key = await newKey()
  spawnedKey = newKey

  const json = { 'content-type': 'application/json' }
  return {
    upstream,
    redisUrl,
    keyPrefix: REDIS_PREFIX,
    tgUrl,
    loopUrl,
    outboxDepth: () => outboxDepth(bench, REDIS_PREFIX),
    targets: {
      direct: { name: 'direct', url: `${upstream}/v1/chat/completions`, headers: json, model: 'bench-model' },
      bare: { name: 'bare proxy', url: `http://127.0.0.1:${bare.match[1]}/v1/chat/completions`, headers: json, model: 'bench-model' },
      tollgate: {
        name: 'tollgate',
        url: `${tgUrl}/v1/chat/completions`,
        headers: { ...json, authorization: `Bearer ${key}` },
        model: 'bench/chat',
      },
    },
    pids: { direct: fake.proc.pid, bare: bare.proc.pid, tollgate: tg.proc.pid },
    newKey,
    readStores: () => readStores(bench),
    pinBackends: () => pinBackends(dbName),
  }
}

async function pinBackends(dbName: string): Promise<void> {
  if (!pinned) return
  const pg = postgres(PG, { max: 1, onnotice: () => {} })
  const rows = await pg`select pid from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`
  await pg.end()
  for (const { pid } of rows) await Bun.spawn(['taskset', '-pc', '1', String(pid)], { stdout: 'ignore', stderr: 'ignore' }).exited
}

/** The environment startStack gave its Tollgate: a variant (startVariant) shares its database. */
let tollgateEnv: Record<string, string> | undefined

/** Tollgate from the checkout `root`, pinned to CPU 0, with the event-loop delay side channel. */
async function spawnTollgate(root: string, env: Record<string, string>, profile: string[] = []) {
  const tg = await spawnReady(
    pin(0, [process.execPath, ...profile, '--preload', `${root}bench/loop-delay-preload.ts`, `${root}src/index.ts`]),
    env,
    /loop-delay port (\d+)[\s\S]*tollgate listening on (http:\S+)/,
    'stdout',
  )
  return { proc: tg.proc, url: tg.match[2]!, loopUrl: `http://127.0.0.1:${tg.match[1]}/` }
}

/**
 * One more Tollgate, from another checkout `root` (with its own node_modules), on the same
 * database, upstream and catalog as the stack's, under its own Redis key prefix (so its ledger
 * writer reads only its own outbox): bench/ab.ts measures two trees side by side with it.
 * The stack's keys work on it (same database).
 */
export async function startVariant(
  root: string,
  name: string,
  env: Record<string, string> = {},
): Promise<{ target: Target; loopUrl: string; pid: number }> {
  if (!tollgateEnv) throw new Error('startVariant: startStack first')
  const dir = root.endsWith('/') ? root : `${root}/`
  const tg = await spawnTollgate(dir, { ...tollgateEnv, ...env, REDIS_PREFIX: `${REDIS_PREFIX}${name}:` })
  const json = { 'content-type': 'application/json' }
  const key = (await spawnedKey?.()) ?? ''
  return {
    target: { name, url: `${tg.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${key}` }, model: 'bench/chat' },
    loopUrl: tg.loopUrl,
    pid: tg.proc.pid,
  }
}
let spawnedKey: (() => Promise<string>) | undefined

/** Tollgate's stream is whole: the usage chunk, the svc chunk and `[DONE]` at the end. */
export const streamOk = (text: string) => text.includes('"usage":{') && text.includes('"svc":{') && text.trimEnd().endsWith('data: [DONE]')
