// The embeddings part (docs/benchmarks.md): one batch of 64 inputs, answered with 64 vectors of
// 1,536 dimensions as floats (≈ 1 MB of JSON) and as base64 (what the official SDKs ask for):
// direct vs bare proxy vs Tollgate, latency at concurrency 1 and a closed loop of 8 connections.
// Tollgate's `data` member is checked to be the upstream's bytes exactly (the pass-through never
// decodes the vectors, protocols/embeddings/passthrough.ts).
import { latency, once, saturate, type Target } from './driver.ts'
import type { Stack } from './harness.ts'
import { topLevelMembers } from '../src/lib/json-members.ts'

export interface EmbeddingsConfig {
  latencyN: number
  seconds: number
  conns: number
}

export interface EmbeddingsResult {
  lines: string[]
  /** Tollgate's RPS ÷ the bare proxy's, per format. */
  ratio: Record<Format, number>
  /** Tollgate answers whose `data` was the upstream's bytes exactly. */
  sameBytes: { ok: number; total: number }
}

const FORMATS = ['float', 'base64'] as const
type Format = (typeof FORMATS)[number]
const INPUTS = Array.from({ length: 64 }, (_, i) => `Benchmark passage number ${i}: a sentence to embed.`)
const fmt = (x: number, d = 2) => x.toFixed(d)

/** The exact text of an answer's top-level `data` member. */
const dataOf = (text: string): string | undefined => topLevelMembers(text)?.get('data')

export async function runEmbeddings(stack: Stack, cfg: EmbeddingsConfig): Promise<EmbeddingsResult> {
  const at = (t: Target, model: string, format: Format): Target => ({
    ...t,
    url: t.url.replace('/chat/completions', '/embeddings'),
    model,
    body: JSON.stringify({ model, input: INPUTS, encoding_format: format }),
  })
  const lines = [
    '| embeddings, batch of 64 | target | bytes | RPS (8 conns) | CPU µs/req | p50 ms (c=1) | p99 ms (c=1) |',
    '|---|---|--:|--:|--:|--:|--:|',
  ]
  const ratio = { float: 0, base64: 0 }
  const sameBytes = { ok: 0, total: 0 }
  for (const format of FORMATS) {
    const targets = {
      direct: at(stack.targets.direct, 'bench-embed', format),
      bare: at(stack.targets.bare, 'bench-embed', format),
      tollgate: at(stack.targets.tollgate, 'bench/embed', format),
    }
    const upstreamData = dataOf((await once(targets.direct, false, true))[2])
    if (!upstreamData) throw new Error(`embeddings: the fake upstream's ${format} answer has no data member`)
    const rps: Record<string, number> = {}
    for (const [name, t] of Object.entries(targets)) {
      const bytes = (await once(t, false, true))[2].length
      await latency(t, false, cfg.latencyN) // warm-up
      const lat = await latency(t, false, cfg.latencyN)
      const check = name === 'tollgate' ? (text: string) => dataOf(text) === upstreamData : undefined
      const load = await saturate(t, false, cfg.conns, cfg.seconds, stack.pids[name as keyof Stack['pids']], check)
      rps[name] = load.rps
      sameBytes.ok += load.checked.ok
      sameBytes.total += load.checked.total
      lines.push(
        `| ${format} | ${t.name} | ${bytes} | ${fmt(load.rps, 0)} | ${fmt(load.cpuUsPerReq, 0)} | ${fmt(lat.p50, 3)} | ${fmt(lat.p99, 3)} |`,
      )
      console.error(`embeddings: ${format} ${t.name} ${Math.round(load.rps)} RPS`)
    }
    ratio[format] = rps.tollgate! / rps.bare!
  }
  lines.push(
    '',
    `Embeddings throughput vs the bare proxy: float ${fmt(ratio.float)}×, base64 ${fmt(ratio.base64)}× (docs/benchmarks.md "Embeddings")`,
  )
  return { lines, ratio, sameBytes }
}
