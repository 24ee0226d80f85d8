// `bun bench/ab-saturation.ts <tree-a> <tree-b> [...]` (docs/benchmarks.md "A/B of two trees"):
// the saturation half of an A/B — Tollgates from several checkouts side by side in one stack
// (as bench/ab.ts), in interleaved rounds whose order alternates: 64 connections for 5 s,
// non-stream then stream; RPS and CPU µs per request per round and their medians.
// ROUNDS (default 4); each tree needs its own node_modules. A tree may carry environment for its
// Tollgate after a `?`, e.g. `. .?BUN_JSC_forceRAMSize=536870912` (the same tree with and without).
import { saturate, type Target } from './driver.ts'
import { cleanup, MAX_HTTP_REQUESTS, pin, startStack, startVariant } from './harness.ts'
import { median } from './stats.ts'
const trees = process.argv.slice(2)
if (!process.env.BENCH_CHILD) {
  const child = Bun.spawn(pin(1, [process.execPath, import.meta.path, ...trees]), {
    env: { ...process.env, BENCH_CHILD: '1', BUN_CONFIG_MAX_HTTP_REQUESTS: MAX_HTTP_REQUESTS },
    stdio: ['inherit', 'inherit', 'inherit'],
  })
  process.exit(await child.exited)
}
const ROUNDS = Number(process.env.ROUNDS ?? 4)
try {
  // The shared stack (upstream, database, Redis prefix) the variants join.
  await startStack({ slowStream: { intervalMs: 1_000, deltas: 10 } })
  const vs: { name: string; target: Target; pid: number }[] = []
  for (const [i, spec] of trees.entries()) {
    const [root = '.', query = ''] = spec.split('?')
    const env = Object.fromEntries(new URLSearchParams(query))
    vs.push({ name: String.fromCharCode(97 + i), ...(await startVariant(root, String.fromCharCode(97 + i), env)) })
  }
  for (const v of vs) {
    await saturate(v.target, false, 64, 2, v.pid)
    await saturate(v.target, true, 64, 2, v.pid)
  }
  const s: Record<string, number[]> = {}
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...vs].reverse() : vs
    let line = `round ${r + 1}:`
    for (const stream of [false, true])
      for (const v of order) {
        const x = await saturate(v.target, stream, 64, 5, v.pid)
        ;(s[`${v.name}${stream ? 's' : 'j'}rps`] ??= []).push(x.rps)
        ;(s[`${v.name}${stream ? 's' : 'j'}cpu`] ??= []).push(x.cpuUsPerReq)
        line += ` ${v.name}${stream ? ' stream' : ' json'} ${x.rps | 0} rps ${x.cpuUsPerReq | 0} µs;`
      }
    console.log(line)
  }
  for (const v of vs)
    console.log(
      `${v.name} ${trees[vs.indexOf(v)]}: json ${median(s[`${v.name}jrps`]!) | 0} rps ${median(s[`${v.name}jcpu`]!) | 0} µs; stream ${median(s[`${v.name}srps`]!) | 0} rps ${median(s[`${v.name}scpu`]!) | 0} µs`,
    )
} finally {
  await cleanup()
}
process.exit(0)
