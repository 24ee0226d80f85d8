// `bun bench/ab.ts <tree-a> <tree-b> [...]` (docs/benchmarks.md "A/B of two trees"): Tollgates
// from several checkouts side by side in one stack (same Postgres, Redis, fake upstream, bare
// proxy; each pinned to CPU 0 as in `bun run bench`), measured in interleaved rounds whose
// order alternates: latency at concurrency 1 and a 20 ms upstream at 16 connections (RPS and
// p50 of those runs, Postgres's CPU per call over them, and p50 at concurrency 1), the low-load
// targets of `core`. On a shared
// machine, noise moves every target alike within a round, so medians of the rounds compare the
// trees where two separate runs could not.
//
// BENCH_AB_ROUNDS (default 6) rounds; each tree needs its own node_modules. A tree may carry
// environment for its Tollgate after a `?` (`. '.?BUN_JSC_forceRAMSize=536870912'`: one tree
// with and without a setting). BENCH_AB_SATURATION=1 adds to each round 64 connections for 5 s,
// non-stream then stream (RPS, and CPU µs per call until the tree's ledger writer has written what
// the run left: its batches count for the calls of the run, not for the next tree's; Redis's and
// Postgres's CPU per call over the same span, as `core` reads them).
import Redis from 'ioredis'
import { cpuMicros, latency, type LoadResult, saturate, type Target } from './driver.ts'
import { cleanup, MAX_HTTP_REQUESTS, pin, startStack, startVariant } from './harness.ts'
import { median } from './stats.ts'
import { storeCost } from './store-cost.ts'
import { fmtDelay, outboxDepth, outboxDrained, withLoopDelay } from './sut-metrics.ts'

const trees = process.argv.slice(2)
if (trees.length < 2) {
  console.error('usage: bun bench/ab.ts <tree-a> <tree-b> [...]  (checkouts of Tollgate, each with node_modules)')
  process.exit(2)
}
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 6)
const LATENCY_N = 1_000
const SECONDS = 3
const SATURATION = process.env.BENCH_AB_SATURATION === '1'

// As run.ts: the load generator on CPU 1, fetch()'s concurrency cap lifted.
if (!process.env.BENCH_CHILD) {
  const child = Bun.spawn(pin(1, [process.execPath, import.meta.path, ...trees]), {
    env: { ...process.env, BENCH_CHILD: '1', BUN_CONFIG_MAX_HTTP_REQUESTS: MAX_HTTP_REQUESTS },
    stdio: ['inherit', 'inherit', 'inherit'],
  })
  process.on('SIGINT', () => {})
  process.exit(await child.exited)
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))

interface Variant {
  name: string
  target: Target
  loopUrl: string
  pid: number
}
const samples: Record<string, number[][]> = {}
let stopRedis = () => {}
const keep = (k: string, xs: number[]) => (samples[k] ??= []).push(xs)
const med = (k: string, i: number) => median(samples[k]!.map((x) => x[i]!))
const f = (x: number) => x.toFixed(3)

try {
  const stack = await startStack({ slowStream: { intervalMs: 1_000, deltas: 10 } })
  const { direct } = stack.targets
  const redis = new Redis(stack.redisUrl)
  stopRedis = () => redis.disconnect()
  const variants: Variant[] = []
  for (const [i, spec] of trees.entries()) {
    const name = `${String.fromCharCode(97 + i)}`
    const [root = '.', query = ''] = spec.split('?')
    variants.push({ name, ...(await startVariant(root, name, Object.fromEntries(new URLSearchParams(query)))) })
    console.log(`${name}: ${spec}`)
  }
  /** A run of tree `v` with the CPU per call of its process, Redis and Postgres, from its start until its writer caught up. */
  const costed = async (v: Variant, work: () => Promise<LoadResult>) => {
    const drained = () => outboxDrained(() => outboxDepth(redis, `${stack.keyPrefix}${v.name}:`), 30_000, 50)
    await drained()
    await stack.pinBackends()
    const [s0, cpu0] = await Promise.all([stack.readStores(), cpuMicros(v.pid)])
    const run = await work()
    await drained()
    const [s1, cpu1] = await Promise.all([stack.readStores(), cpuMicros(v.pid)])
    return { run, cpuUs: (cpu1 - cpu0) / run.completed, ...storeCost(s0, s1, run.completed) }
  }
  for (const v of variants) await latency(v.target, false, LATENCY_N)
  await latency(direct, false, LATENCY_N)
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...variants].reverse() : variants
    const d = await latency(direct, false, LATENCY_N)
    keep('direct', [d.p50, d.p99])
    let line = `round ${round + 1}: c=1 direct ${f(d.p50)} / ${f(d.p99)}`
    for (const v of order) {
      const [r, loop] = await withLoopDelay(v.loopUrl, () => latency(v.target, false, LATENCY_N))
      keep(v.name, [r.p50, r.p99])
      line += ` | ${v.name} +${f(r.p50 - d.p50)} / +${f(r.p99 - d.p99)} (loop ${fmtDelay(loop)})`
    }
    console.log(line)
    const slow = { ...direct, model: 'bench-model-20ms' }
    const ds = await saturate(slow, false, 16, SECONDS, stack.pids.direct)
    const dl = await latency(slow, false, LATENCY_N / 10)
    keep('direct:20ms', [ds.rps, dl.p50, 0, ds.p50])
    line = `round ${round + 1}: 20 ms direct ${ds.rps.toFixed(0)} RPS`
    for (const v of order) {
      const t = { ...v.target, model: 'bench/chat-20ms' }
      const { run: s, pgUs } = await costed(v, () => saturate(t, false, 16, SECONDS, v.pid))
      const l = await latency(t, false, LATENCY_N / 10)
      keep(`${v.name}:20ms`, [s.rps, l.p50, s.cpuUsPerReq, s.p50, pgUs])
      line += ` | ${v.name} ${s.rps.toFixed(0)} (−${((1 - s.rps / ds.rps) * 100).toFixed(1)} %), p50 +${f(s.p50 - ds.p50)} (c=1 +${f(l.p50 - dl.p50)}), ${s.cpuUsPerReq.toFixed(0)} µs/req, PG ${pgUs.toFixed(1)} µs`
    }
    console.log(line)
    if (!SATURATION) continue
    line = `round ${round + 1}: 64 conns`
    for (const stream of [false, true])
      for (const v of order) {
        const { run: x, cpuUs, redisUs, pgUs } = await costed(v, () => saturate(v.target, stream, 64, 5, v.pid))
        keep(`${v.name}:${stream ? 'stream' : 'json'}`, [x.rps, cpuUs, redisUs, pgUs])
        line += ` | ${v.name} ${stream ? 'stream' : 'non-stream'} ${x.rps.toFixed(0)} RPS, ${cpuUs.toFixed(0)} µs/req, Redis ${redisUs.toFixed(1)} + PG ${pgUs.toFixed(1)} µs`
      }
    console.log(line)
  }
  console.log(`\nMedians of ${ROUNDS} rounds (added = over direct):\n`)
  console.log(
    '| tree | c=1 added p50 | c=1 added p99 | 20 ms: fewer RPS than direct | 20 ms: added p50 | 20 ms, c=1: added p50 | 20 ms: CPU µs/req | 20 ms: Postgres µs/req |',
  )
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|')
  for (const v of variants) {
    const k = `${v.name}:20ms`
    console.log(
      `| ${v.name} | +${f(med(v.name, 0) - med('direct', 0))} | +${f(med(v.name, 1) - med('direct', 1))} | ${((1 - med(k, 0) / med('direct:20ms', 0)) * 100).toFixed(1)} % | +${f(med(k, 3) - med('direct:20ms', 3))} | +${f(med(k, 1) - med('direct:20ms', 1))} | ${med(k, 2).toFixed(0)} | ${med(k, 4).toFixed(1)} |`,
    )
  }
  if (SATURATION) {
    console.log(
      '\n| tree | non-stream RPS (64 conns) | CPU µs/req | Redis µs | Postgres µs | stream RPS | CPU µs/req | Redis µs | Postgres µs |',
    )
    console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|')
    const cells = (k: string) => [med(k, 0).toFixed(0), med(k, 1).toFixed(0), med(k, 2).toFixed(1), med(k, 3).toFixed(1)].join(' | ')
    for (const v of variants) console.log(`| ${v.name} | ${cells(`${v.name}:json`)} | ${cells(`${v.name}:stream`)} |`)
  }
} finally {
  stopRedis()
  await cleanup()
}
