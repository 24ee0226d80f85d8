// `bun bench/profile-shares.ts [--samples] <profile.cpuprofile> [calls]` (docs/benchmarks.md "Where each
// microsecond goes"): a CPU profile of Tollgate (BENCH_CPU_PROF) as shares per owner. Each sample
// is charged to the nearest frame of the project — a file of src/ or a package of node_modules —
// so a native socket write counts for the code that asked for it (ioredis, postgres, the
// pipeline…); samples with no project frame on their stack are the runtime's own (the event loop,
// the HTTP server, timers). With `calls`, the profile's time is spread over them: µs per call.
import { relative } from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const ROOT = new URL('..', import.meta.url).pathname

/** "src/inference/pipeline.ts", "ioredis", or undefined for a frame outside the project. */
export function ownerOf(url: string): string | undefined {
  const path = url.startsWith('file://') ? new URL(url).pathname : url
  if (!path.startsWith(ROOT)) return undefined
  const rel = relative(ROOT, path)
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel)
  return pkg ? pkg[1] : rel
}

/**
 * Samples per owner, weighted by the time each sample stands for (the profiler's own deltas), or
 * one each (`samples`): the profiler's clock charges a long system call to the sample after it,
 * so the two weightings bracket where the time went.
 */
export function shares(p: Profile, weight: 'time' | 'samples' = 'time'): Map<string, number> {
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const ownerCache = new Map<number, string>()
  const owner = (id: number): string => {
    const cached = ownerCache.get(id)
    if (cached) return cached
    let at: number | undefined = id
    let found = '(runtime)'
    while (at !== undefined) {
      const o = ownerOf(byId.get(at)!.callFrame.url)
      if (o) {
        found = o
        break
      }
      at = parent.get(at)
    }
    ownerCache.set(id, found)
    return found
  }
  const out = new Map<string, number>()
  for (const [i, id] of p.samples.entries()) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue
    const o = owner(id)
    out.set(o, (out.get(o) ?? 0) + (weight === 'samples' ? 1 : (p.timeDeltas[i] ?? 0)))
  }
  return out
}

if (import.meta.main) {
  const args = process.argv.slice(2)
  const bySamples = args.includes('--samples')
  const [file, callsArg] = args.filter((a) => a !== '--samples')
  if (!file) {
    console.error('usage: bun bench/profile-shares.ts [--samples] <profile.cpuprofile> [calls]')
    process.exit(2)
  }
  const profile = (await Bun.file(file).json()) as Profile
  const s = shares(profile, bySamples ? 'samples' : 'time')
  const total = [...s.values()].reduce((a, b) => a + b, 0)
  const calls = Number(callsArg ?? 0)
  console.log(`| owner | share | ${calls ? 'µs per call |' : ''}`)
  console.log(`|---|--:|${calls ? '--:|' : ''}`)
  for (const [o, t] of [...s.entries()].sort((a, b) => b[1] - a[1])) {
    if (t / total < 0.003) continue
    console.log(`| ${o} | ${((100 * t) / total).toFixed(1)} % | ${calls ? `${(t / calls).toFixed(1)} |` : ''}`)
  }
}
