// The core comparison (docs/benchmarks.md): direct vs bare proxy vs Tollgate, interleaved rounds
// of sequential latency (concurrency 1) and closed-loop saturation, non-stream and stream, and a
// 20 ms upstream at 16 connections; medians of the rounds. Tollgate's event-loop delay is read
// over each of its runs.
import { cpuMicros, latency, saturate, type LatencyResult, type LoadResult } from './driver.ts'
import { streamOk, type Stack } from './harness.ts'
import { fmtCommands, fmtSent, storeCost, type StoreCost } from './store-cost.ts'
import { fmtDelay, outboxDrained, withLoopDelay, type LoopDelay } from './sut-metrics.ts'
import { median } from './stats.ts'

export interface CoreConfig {
  rounds: number
  latencyN: number
  seconds: number
  conns: number
  /** Sequential calls, then seconds of closed loop per mode, to warm each target. */
  warm: number
  warmSeconds: number
}

export interface CoreResult {
  lines: string[]
  /** Tollgate's saturation RPS (medians), for the soak's rate. */
  tollgateRps: { json: number; sse: number }
  ratio: { json: number; sse: number }
  added: { p50: number; p99: number; ttfbP50: number }
  /**
   * The 20 ms upstream at 16 connections (the target's load): Tollgate's RPS loss and added p50
   * against direct; the bare proxy's, the platform's share; and the added p50 at concurrency 1.
   */
  realistic: { rpsLoss: number; addedP50: number; bare: { rpsLoss: number; addedP50: number }; addedP50c1: number }
  streamChecks: { ok: number; total: number }
  /** What one call costs each process, per mode (medians of the saturation rounds). */
  cost: { json: CallCost; sse: CallCost }
  /** Answers other than 2xx over every saturation run of every target, and calls cut at the runs' ends. */
  failed: { count: number; first?: string; cut: number }
}

/** One Tollgate call's CPU in each process: the gateway's (with the ledger writer's catch-up after the run), the bare proxy's, the stores'. */
export interface CallCost extends StoreCost {
  gatewayUs: number
  bareUs: number
}

const NAMES = ['direct', 'bare', 'tollgate'] as const
const fmt = (x: number, d = 2) => x.toFixed(d)

export async function runCore(stack: Stack, cfg: CoreConfig): Promise<CoreResult> {
  const { targets, pids, loopUrl } = stack
  // Warm every target to its steady state before anything is measured: sequential calls, then
  // a closed loop of each mode (JavaScriptCore compiles hot code in tiers as it runs;
  // docs/benchmarks.md "Method", warm-up).
  console.error('core: warming up…')
  for (const n of NAMES) {
    await latency(targets[n], false, cfg.warm)
    await latency(targets[n], true, cfg.warm / 4)
    for (const stream of [false, true]) await saturate(targets[n], stream, cfg.conns, cfg.warmSeconds, pids[n])
  }
  const waited = await outboxDrained(stack.outboxDepth)
  console.error(`core: ledger outbox empty after ${waited.toFixed(1)} s`)

  const costs: Record<string, (StoreCost & { gatewayUs: number })[]> = {}
  const failed: CoreResult['failed'] = { count: 0, cut: 0 }
  const tally = (r: LoadResult) => {
    failed.count += r.failed.count
    failed.first ??= r.failed.first
    failed.cut += r.cut
    return r
  }
  // A Tollgate saturation run, with what it cost the stores: from its start until the ledger
  // writer has written what the run left in the outbox (the gateway's CPU over the same span).
  const costed = async (k: string, work: () => Promise<LoadResult>): Promise<LoadResult> => {
    await stack.pinBackends()
    const [s0, c0] = await Promise.all([stack.readStores(), cpuMicros(pids.tollgate)])
    const r = await work()
    await outboxDrained(stack.outboxDepth, 30_000, 50)
    const [s1, c1] = await Promise.all([stack.readStores(), cpuMicros(pids.tollgate)])
    ;(costs[k] ??= []).push({ ...storeCost(s0, s1, r.completed), gatewayUs: (c1 - c0) / r.completed })
    return r
  }
  const lat: Record<string, LatencyResult[]> = {}
  const load: Record<string, LoadResult[]> = {}
  const delay: Record<string, LoopDelay[]> = {}
  // Tollgate's runs are measured inside an event-loop delay window; the others are not Tollgate.
  const measure = async <T>(n: string, key: string, work: () => Promise<T>): Promise<T> => {
    if (n !== 'tollgate') return work()
    const [r, d] = await withLoopDelay(loopUrl, work)
    ;(delay[key] ??= []).push(d)
    return r
  }
  for (let round = 0; round < cfg.rounds; round++) {
    console.error(`core: round ${round + 1}/${cfg.rounds}`)
    for (const stream of [false, true]) {
      for (const n of NAMES) {
        const k = `${n}:${stream ? 'sse' : 'json'}`
        const count = stream ? cfg.latencyN / 3 : cfg.latencyN
        ;(lat[k] ??= []).push(await measure(n, `${k}:lat`, () => latency(targets[n], stream, count)))
        const check = n === 'tollgate' && stream ? streamOk : undefined
        const run = () => saturate(targets[n], stream, cfg.conns, cfg.seconds, pids[n], check)
        const sat = tally(await measure(n, `${k}:sat`, n === 'tollgate' ? () => costed(k, run) : run))
        ;(load[k] ??= []).push(sat)
        console.error(`core:   ${k} ${Math.round(sat.rps)} RPS, ${Math.round(sat.cpuUsPerReq)} µs/req`)
      }
    }
    // A realistic upstream: 20 ms per answer, 16 connections (and one, for the c=1 line).
    for (const n of NAMES) {
      const t = { ...targets[n], model: n === 'tollgate' ? 'bench/chat-20ms' : 'bench-model-20ms' }
      ;(load[`${n}:20ms`] ??= []).push(tally(await saturate(t, false, 16, cfg.seconds, pids[n])))
      ;(lat[`${n}:20ms`] ??= []).push(await latency(t, false, Math.floor(cfg.latencyN / 10)))
    }
  }

  const m = <R>(k: string, f: (r: R) => number, from: Record<string, R[]>) => median(from[k]!.map(f))
  const dm = (k: string): LoopDelay => ({
    p50: m(k, (d) => d.p50, delay),
    p99: m(k, (d) => d.p99, delay),
    max: m(k, (d) => d.max, delay),
  })
  const lines: string[] = []
  lines.push(
    '| mode | target | RPS (64 conns) | CPU µs/req | p50 ms (c=1) | p99 ms (c=1) | added p50 | added p99 | TTFB p50 | added TTFB p50 | loop delay ms p50/p99/max (saturation) | (c=1) |',
  )
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|')
  for (const mode of ['json', 'sse'] as const) {
    const d = `direct:${mode}`
    for (const n of NAMES) {
      const k = `${n}:${mode}`
      const p50 = m(k, (r) => r.p50, lat)
      const p99 = m(k, (r) => r.p99, lat)
      const ttfb = m(k, (r) => r.ttfbP50, lat)
      const plus = (x: number, q: 'p50' | 'p99' | 'ttfbP50') => (n === 'direct' ? '—' : `+${fmt(x - m(d, (r) => r[q], lat), 3)}`)
      const loops = n === 'tollgate' ? `${fmtDelay(dm(`${k}:sat`))} | ${fmtDelay(dm(`${k}:lat`))}` : '— | —'
      lines.push(
        `| ${mode === 'json' ? 'non-stream' : 'stream'} | ${targets[n].name} | ${fmt(
          m(k, (r) => r.rps, load),
          0,
        )} | ${fmt(
          m(k, (r) => r.cpuUsPerReq, load),
          0,
        )} | ${fmt(p50, 3)} | ${fmt(p99, 3)} | ${plus(p50, 'p50')} | ${plus(p99, 'p99')} | ${fmt(ttfb, 3)} | ${plus(ttfb, 'ttfbP50')} | ${loops} |`,
      )
    }
  }
  const callCost = (mode: 'json' | 'sse'): CallCost => {
    const k = `tollgate:${mode}`
    const mid = (f: (c: StoreCost & { gatewayUs: number }) => number) => median(costs[k]!.map(f))
    // The commands of the round whose count is the median.
    const byCount = [...costs[k]!].sort((a, b) => a.commandsTotal - b.commandsTotal)
    return {
      gatewayUs: mid((c) => c.gatewayUs),
      bareUs: m(`bare:${mode}`, (r) => r.cpuUsPerReq, load),
      redisUs: mid((c) => c.redisUs),
      pgUs: mid((c) => c.pgUs),
      commands: byCount[byCount.length >> 1]!.commands,
      commandsTotal: mid((c) => c.commandsTotal),
      sent: byCount[byCount.length >> 1]!.sent,
    }
  }
  const cost = { json: callCost('json'), sse: callCost('sse') }
  lines.push('')
  lines.push(
    '| mode | gateway CPU µs/call | bare proxy CPU µs/call | ratio | Redis CPU µs/call | Postgres CPU µs/call | Redis + Postgres | Redis commands/call |',
  )
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|')
  for (const mode of ['json', 'sse'] as const) {
    const c = cost[mode]
    lines.push(
      `| ${mode === 'json' ? 'non-stream' : 'stream'} | ${fmt(c.gatewayUs, 1)} | ${fmt(c.bareUs, 1)} | ${fmt(c.gatewayUs / c.bareUs)}× | ${fmt(c.redisUs, 1)} | ${fmt(c.pgUs, 1)} | ${fmt(c.redisUs + c.pgUs, 1)} | ${fmt(c.commandsTotal, 2)} |`,
    )
  }
  lines.push('')
  for (const mode of ['json', 'sse'] as const) {
    lines.push(`Redis commands per ${mode} call: ${fmtCommands(cost[mode].commands)}`)
    lines.push(
      `Redis time per ${mode} call in what Tollgate sent: ${fmtSent(cost[mode].sent)} (the rest of its CPU: parsing, replies, the network)`,
    )
  }
  lines.push(
    '',
    `Saturation runs: ${failed.count} answers other than 2xx${failed.first ? ` (first: ${failed.first})` : ''}; ${failed.cut} calls cut in flight at the runs' ends`,
  )
  const rps = (k: string) => m(k, (r) => r.rps, load)
  const p50 = (k: string) => m(k, (r) => r.p50, lat)
  const p50At16 = (k: string) => m(k, (r) => r.p50, load)
  const at20 = (n: string) =>
    `${n} ${fmt(rps(`${n}:20ms`), 0)} RPS, p50 ${fmt(p50At16(`${n}:20ms`), 3)} ms (c=1: ${fmt(p50(`${n}:20ms`), 3)} ms)`
  lines.push('')
  lines.push(`Realistic upstream (20 ms, 16 conns): ${NAMES.map(at20).join('; ')}`)
  const streamChecks = load['tollgate:sse']!.reduce((a, r) => ({ ok: a.ok + r.checked.ok, total: a.total + r.checked.total }), {
    ok: 0,
    total: 0,
  })
  return {
    lines,
    tollgateRps: { json: rps('tollgate:json'), sse: rps('tollgate:sse') },
    ratio: { json: rps('tollgate:json') / rps('bare:json'), sse: rps('tollgate:sse') / rps('bare:sse') },
    added: {
      p50: p50('tollgate:json') - p50('direct:json'),
      p99: m('tollgate:json', (r) => r.p99, lat) - m('direct:json', (r) => r.p99, lat),
      ttfbP50: m('tollgate:sse', (r) => r.ttfbP50, lat) - m('direct:sse', (r) => r.ttfbP50, lat),
    },
    realistic: {
      rpsLoss: 1 - rps('tollgate:20ms') / rps('direct:20ms'),
      addedP50: p50At16('tollgate:20ms') - p50At16('direct:20ms'),
      bare: { rpsLoss: 1 - rps('bare:20ms') / rps('direct:20ms'), addedP50: p50At16('bare:20ms') - p50At16('direct:20ms') },
      addedP50c1: p50('tollgate:20ms') - p50('direct:20ms'),
    },
    streamChecks,
    cost,
    failed,
  }
}
