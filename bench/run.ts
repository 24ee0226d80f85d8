// `bun run bench` (docs/benchmarks.md): Tollgate's full path (Postgres + Redis) vs a bare Bun
// fetch proxy vs the fake upstream called directly, from one run — the core comparison
// (core.ts), a soak at half of the saturation rate (soak.ts), 5,000 open streams to a slow
// upstream (streams5k.ts), a batch of 64 embeddings (embeddings.ts) and the test kit's start time
// (kit-start.ts) — then the targets table.
//
// BENCH_QUICK=1 short runs; BENCH_ONLY=core,streams5k,soak,embeddings,kit (any subset) picks parts
// (BENCH_ONLY=kit alone starts no Postgres/Redis stack);
// BENCH_STREAMS (default 5000) open streams; BENCH_SOAK_MINUTES (default 10, quick 1; 0 skips);
// BENCH_CPU_PROF=<dir> writes a CPU profile of Tollgate over the whole run there; BENCH_ROUNDS
// (default 3, quick 2) sets the core part's interleaved rounds.
import { runCore, type CoreResult } from './core.ts'
import { runEmbeddings, type EmbeddingsResult } from './embeddings.ts'
import { type KitStartResult, runKitStart } from './kit-start.ts'
import { runStreams, type StreamsResult } from './streams5k.ts'
import { runSoak, type SoakResult } from './soak.ts'
import { saturate } from './driver.ts'
import { cleanup, MAX_HTTP_REQUESTS, pin, pinned, startStack } from './harness.ts'
import { fmtDelay, outboxDrained } from './sut-metrics.ts'
import { measureMetricsCost } from './metrics-cost.ts'

const QUICK = process.env.BENCH_QUICK === '1'
const PARTS = ['core', 'soak', 'streams5k', 'embeddings', 'kit'] as const
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
const unknown = only?.filter((p) => !(PARTS as readonly string[]).includes(p))
if (unknown?.length) {
  console.error(`BENCH_ONLY: unknown part(s) ${unknown.join(', ')}; known: ${PARTS.join(', ')}`)
  process.exit(2)
}
const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? (QUICK ? 1 : 10))
const runs = (part: (typeof PARTS)[number]) => (only ? only.includes(part) : true) && (part !== 'soak' || SOAK_MINUTES > 0)

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 3))
const CORE = QUICK
  ? { rounds: ROUNDS, latencyN: 300, seconds: 2, conns: 64, warm: 200, warmSeconds: 2 }
  : { rounds: ROUNDS, latencyN: 1_500, seconds: 5, conns: 64, warm: 1_000, warmSeconds: 8 }
const EMBEDDINGS = QUICK ? { latencyN: 50, seconds: 2, conns: 8 } : { latencyN: 200, seconds: 5, conns: 8 }
const STREAMS = {
  streams: Number(process.env.BENCH_STREAMS ?? 5_000),
  intervalMs: 1_000,
  deltas: QUICK ? 10 : 30,
  rampMs: 5_000,
  probes: QUICK ? 200 : 1_000,
}

// Re-execute once: pinned to CPU 1 (load generator), with the open-file limit raised to the hard
// limit (each open stream is two sockets in Tollgate) and fetch()'s concurrency cap lifted.
if (!process.env.BENCH_CHILD) {
  const child = Bun.spawn(
    ['sh', '-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', 'sh', ...pin(1, [process.execPath, import.meta.path])],
    {
      env: { ...process.env, BENCH_CHILD: '1', BUN_CONFIG_MAX_HTTP_REQUESTS: MAX_HTTP_REQUESTS },
      stdio: ['inherit', 'inherit', 'inherit'],
    },
  )
  // Ctrl-C reaches the child too; wait for its cleanup instead of returning the prompt early.
  process.on('SIGINT', () => {})
  process.exit(await child.exited)
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))

async function openFileLimit(): Promise<number> {
  const limits = await Bun.file('/proc/self/limits').text()
  return Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? Infinity)
}

const fmt = (x: number, d = 2) => x.toFixed(d)

function streamsLines(r: StreamsResult): string[] {
  const o = r.other
  return [
    `${r.streams} concurrent streams to a slow upstream (one delta per ${STREAMS.intervalMs} ms, ${STREAMS.deltas} deltas), opened over ${STREAMS.rampMs} ms: all open after ${fmt(r.allOpenMs / 1000, 1)} s, done in ${fmt(r.seconds, 1)} s; peak open ${r.peakOpen} (client) / ${r.peakUpstreamOpen} (upstream); whole ${r.whole}/${r.streams}${r.errors.length ? `; first error: ${r.errors[0]}` : ''}`,
    `Tollgate RSS: ${fmt(r.rss.before, 1)} MB before, ${fmt(r.rss.allOpen, 1)} MB when all were open, peak ${fmt(r.rss.peak, 1)} MB sampled (VmHWM ${fmt(r.rss.hwm, 1)} MB)`,
    '',
    '| other client (non-stream, c=1) | p50 ms | p99 ms |',
    '|---|--:|--:|',
    `| idle | ${fmt(o.idle.p50, 3)} | ${fmt(o.idle.p99, 3)} |`,
    `| during ${r.streams} open streams | ${fmt(o.loaded.p50, 3)} | ${fmt(o.loaded.p99, 3)} |`,
    '',
    `Tollgate event-loop delay ms p50/p99/max: idle ${fmtDelay(r.loop.idle)}; while the streams opened ${fmtDelay(r.loop.opening)}; while all were open ${fmtDelay(r.loop.open)}`,
    `GET /metrics with all streams open: ${fmt(r.scrape.ms, 1)} ms; event-loop delay around it ${fmtDelay(r.scrape.loop)}`,
  ]
}

function soakLines(r: SoakResult, rps: number): string[] {
  const lines = [
    `Soak: open loop at ${fmt(rps, 0)} RPS (half of saturation; every 4th call a stream) for ${SOAK_MINUTES} min`,
    '',
    '| at min | RPS | p50 ms | p99 ms | RSS MB (mean) | loop delay ms p50/p99/max | outbox depth | errors | shed |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ]
  for (const i of r.intervals)
    lines.push(
      `| ${fmt(i.atMin)} | ${fmt(i.rps, 0)} | ${fmt(i.p50, 3)} | ${fmt(i.p99, 3)} | ${fmt(i.rssMb, 1)} | ${fmtDelay(i.loop)} | ${i.outboxDepth} | ${i.errors} | ${i.shed} |`,
    )
  lines.push(
    '',
    `After the first interval: RSS slope ${fmt(r.rssSlope, 3)} MB/min (least squares, one sample a second); p99 max/min ${fmt(r.p99Stability, 2)}; errors ${r.errors}, shed ${r.shed}${r.firstError ? `; first error: ${r.firstError}` : ''}`,
  )
  return lines
}

function targetLines(
  core: CoreResult | undefined,
  hooksNs: number | undefined,
  streams: StreamsResult | undefined,
  soak: SoakResult | undefined,
  embeddings: EmbeddingsResult | undefined,
  kit: KitStartResult | undefined,
): string[] {
  const lines = ['| target | measured | goal | met |', '|---|--:|--:|:-:|']
  const row = (name: string, measured: string, goal: string, ok: boolean) =>
    lines.push(`| ${name} | ${measured} | ${goal} | ${ok ? 'yes' : 'no'} |`)
  const ms = (x: number) => `${fmt(x, 3)} ms`
  if (core) {
    const { ratio, added, realistic, streamChecks: c, cost, failed } = core
    for (const mode of ['json', 'sse'] as const) {
      const k = cost[mode]
      const label = mode === 'json' ? 'non-stream' : 'stream'
      const times = k.gatewayUs / k.bareUs
      const most = mode === 'json' ? 3.3 : 3.8
      row(`gateway CPU per call vs the bare proxy's, ${label}`, `${fmt(times)}× (${fmt(k.gatewayUs, 1)} µs)`, `≤ ${most}×`, times <= most)
      row(`Postgres CPU per call, ${label}`, `${fmt(k.pgUs, 1)} µs`, '≤ 25 µs', k.pgUs <= 25)
      const stores = k.redisUs + k.pgUs
      row(`Redis + Postgres CPU per call, ${label}`, `${fmt(stores, 1)} µs`, '≤ 45 µs', stores <= 45)
    }
    row('answers other than 2xx (runs end with calls cut)', String(failed.count), '0', failed.count === 0)
    lines.push(`| throughput vs bare proxy, non-stream | ${fmt(ratio.json)}× | reported | — |`)
    lines.push(`| throughput vs bare proxy, stream | ${fmt(ratio.sse)}× | reported | — |`)
    row('added p50 at c=1', ms(added.p50), '≤ +0.40 ms', added.p50 <= 0.4)
    row('added p99 at c=1', ms(added.p99), '≤ +1.5 ms', added.p99 <= 1.5)
    row('added stream TTFB p50', ms(added.ttfbP50), '≤ +1 ms', added.ttfbP50 <= 1)
    row('20 ms upstream, 16 conns: fewer RPS than direct', `${fmt(realistic.rpsLoss * 100, 1)} %`, '≤ 2 %', realistic.rpsLoss <= 0.02)
    row('20 ms upstream, 16 conns: added p50', ms(realistic.addedP50), '≤ +0.5 ms', realistic.addedP50 <= 0.5)
    row('streams with usage + svc chunk + [DONE]', `${c.ok}/${c.total}`, '100%', c.ok === c.total)
  }
  if (hooksNs !== undefined) row('metrics + tracing-off hooks per request', `${fmt(hooksNs / 1000, 3)} µs`, '≤ 3 µs', hooksNs <= 3_000)
  if (streams) {
    const { rss, other, streams: n } = streams
    const peak = Math.max(rss.peak, rss.hwm)
    row(`${n} open streams: Tollgate peak RSS`, `${fmt(peak, 1)} MB`, '< 300 MB', peak < 300)
    row(`${n} open streams: arrived whole`, `${streams.whole}/${n}`, '100%', streams.whole === n)
    const d50 = other.loaded.p50 - other.idle.p50
    const d99 = other.loaded.p99 - other.idle.p99
    row(`${n} open streams: other clients' added p50`, ms(d50), '≤ +0.5 ms', d50 <= 0.5)
    row(`${n} open streams: other clients' added p99`, ms(d99), '≤ +1.5 ms', d99 <= 1.5)
  }
  if (soak) {
    row('soak: RSS slope', `${fmt(soak.rssSlope, 3)} MB/min`, 'within ±0.5 MB/min', Math.abs(soak.rssSlope) <= 0.5)
    row('soak: p99 max/min over intervals', `${fmt(soak.p99Stability)}×`, '≤ 2×', soak.p99Stability <= 2)
    row('soak: failed calls', String(soak.errors), '0', soak.errors === 0)
  }
  if (embeddings) {
    const { sameBytes } = embeddings
    row("embeddings: vectors as the upstream's bytes", `${sameBytes.ok}/${sameBytes.total}`, '100%', sameBytes.ok === sameBytes.total)
  }
  if (kit) {
    row('tollgate/testing: startTollgate() to a first answer, cold', `${fmt(kit.coldMs, 0)} ms`, '≤ 1000 ms', kit.coldMs <= 1_000)
    row('tollgate/testing: startTollgate() to a first answer, warm', `${fmt(kit.warmMs, 0)} ms`, '≤ 300 ms', kit.warmMs <= 300)
  }
  if (core) {
    const { bare, addedP50c1 } = core.realistic
    lines.push(
      '',
      `20 ms upstream, for reference: the bare proxy at 16 conns ${fmt(bare.rpsLoss * 100, 1)} % fewer RPS than direct, p50 +${fmt(bare.addedP50, 3)} ms; Tollgate at c=1 p50 +${fmt(addedP50c1, 3)} ms`,
    )
  }
  return lines
}

const KIT = QUICK ? { processes: 2, warm: 3 } : { processes: 3, warm: 5 }

/** BENCH_ONLY=kit: the kit's start time alone, without the Postgres/Redis stack. */
async function kitOnly() {
  const kit = await runKitStart(KIT)
  console.log(
    [
      `Tollgate benchmark — ${new Date().toISOString()} — kit start only`,
      '',
      ...kit.lines,
      '',
      ...targetLines(undefined, undefined, undefined, undefined, undefined, kit),
    ].join('\n'),
  )
}

async function main() {
  if (only?.length === 1 && only[0] === 'kit') return kitOnly()
  const fds = await openFileLimit()
  if (runs('streams5k') && fds < 2 * STREAMS.streams + 1_000)
    console.error(
      `warning: open-file limit ${fds} < ${2 * STREAMS.streams + 1_000} needed for ${STREAMS.streams} streams (raise the hard limit: ulimit -Hn)`,
    )
  const stack = await startStack({ slowStream: { intervalMs: STREAMS.intervalMs, deltas: STREAMS.deltas } })
  const out: string[] = [
    `Tollgate benchmark — ${new Date().toISOString()} — ${QUICK ? 'quick' : 'full'} run (${PARTS.filter(runs).join(', ')}), ${CORE.rounds} interleaved rounds, medians; ${pinned ? 'SUT pinned to CPU 0, load + fake upstream to CPU 1' : 'unpinned'}`,
    '',
  ]
  let core: CoreResult | undefined
  let streams: StreamsResult | undefined
  let soak: SoakResult | undefined
  let embeddings: EmbeddingsResult | undefined
  let hooksNs: number | undefined

  if (runs('core')) {
    core = await runCore(stack, CORE)
    out.push(...core.lines, '')
    // Observability (docs/observability.md): the hooks' cost per request, measured in isolation.
    hooksNs = (await measureMetricsCost()).ns
  }
  // Each later part starts once the ledger writer has caught up with what the previous one left.
  const settle = async (part: string) => {
    const s = await outboxDrained(stack.outboxDepth)
    out.push(`Before ${part}: ledger outbox ${Number.isNaN(s) ? 'still not empty after 120 s' : `empty after ${fmt(s, 1)} s`}`, '')
  }
  if (runs('soak')) {
    let sat = core?.tollgateRps
    if (!sat) {
      console.error('soak: measuring saturation first…')
      const t = stack.targets.tollgate
      await saturate(t, false, CORE.conns, CORE.seconds, stack.pids.tollgate) // warm-up
      sat = {
        json: (await saturate(t, false, CORE.conns, CORE.seconds, stack.pids.tollgate)).rps,
        sse: (await saturate(t, true, CORE.conns, CORE.seconds, stack.pids.tollgate)).rps,
      }
    }
    await settle('soak')
    // Half of what one core sustains for this mix (3 non-stream calls : 1 stream).
    const rps = 0.5 / (0.75 / sat.json + 0.25 / sat.sse)
    const target = {
      ...stack.targets.tollgate,
      headers: { ...stack.targets.tollgate.headers, authorization: `Bearer ${await stack.newKey()}` },
    }
    soak = await runSoak(target, stack, {
      rps,
      minutes: SOAK_MINUTES,
      intervalSec: SOAK_MINUTES <= 2 ? 10 : 60,
      maxInFlight: 4_096,
    })
    out.push(...soakLines(soak, rps), '')
  }
  // After the soak: the 5,000 streams leave memory that the process returns over minutes, which
  // a soak started right after them counted as its own RSS slope (docs/benchmarks.md "Method").
  if (runs('streams5k')) {
    await settle('streams5k')
    streams = await runStreams(stack, STREAMS)
    out.push(...streamsLines(streams), '')
  }
  if (runs('embeddings')) {
    await settle('embeddings')
    embeddings = await runEmbeddings(stack, EMBEDDINGS)
    out.push(...embeddings.lines, '')
  }
  let kit: KitStartResult | undefined
  if (runs('kit')) {
    kit = await runKitStart(KIT)
    out.push(...kit.lines, '')
  }
  out.push(...targetLines(core, hooksNs, streams, soak, embeddings, kit))
  const s0 = performance.now()
  const scraped = await (await fetch(`${stack.tgUrl}/metrics`)).text()
  const requests = scraped
    .split('\n')
    .filter((l) => l.startsWith('tollgate_requests_total'))
    .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0)
  out.push(
    '',
    `GET /metrics after the run: ${fmt(performance.now() - s0, 1)} ms, ${scraped.length} bytes, tollgate_requests_total ${requests}`,
  )
  console.log(out.join('\n'))
}

try {
  await main()
} finally {
  await cleanup()
}
