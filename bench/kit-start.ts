// `tollgate/testing` start time (docs/testing.md "Start time"): from startTollgate() to the first
// answered call, cold (a fresh process's first instance) and warm (the next ones in the same
// process), each run in its own process (kit-start-child.ts). Targets: ≤ 1 s cold, ≤ 300 ms warm.
// Then where a cold start goes, step by step, in as many more fresh processes (kit-split-child.ts).
import { median } from './stats.ts'

export interface KitStartResult {
  coldMs: number
  warmMs: number
  importMs: number
  lines: string[]
}

/** Runs a child script in a fresh process and returns the JSON of its last line. */
async function child<T>(script: string, args: string[] = []): Promise<T> {
  const proc = Bun.spawn([process.execPath, `${import.meta.dir}/${script}`, ...args], { stdout: 'pipe', stderr: 'inherit' })
  const out = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0) throw new Error(`${script} exited ${proc.exitCode}`)
  return JSON.parse(out.trim().split('\n').at(-1)!) as T
}

export async function runKitStart(o: { processes: number; warm: number }): Promise<KitStartResult> {
  const runs: { importMs: number; coldMs: number; warmMs: number[] }[] = []
  for (let i = 0; i < o.processes; i++) runs.push(await child('kit-start-child.ts', [String(o.warm)]))
  const splits: Record<string, number>[] = []
  for (let i = 0; i < o.processes; i++) splits.push(await child('kit-split-child.ts'))
  const coldMs = median(runs.map((r) => r.coldMs))
  const warmMs = median(runs.flatMap((r) => r.warmMs))
  const importMs = median(runs.map((r) => r.importMs))
  const f = (x: number) => x.toFixed(0)
  return {
    coldMs,
    warmMs,
    importMs,
    lines: [
      `tollgate/testing: startTollgate() to the first answered call, median of ${o.processes} fresh processes: cold ${f(coldMs)} ms (import of the kit before it: ${f(importMs)} ms); warm ${f(warmMs)} ms (${o.warm} later instances per process)`,
      `  cold, step by step (median ms of ${o.processes} more fresh processes): ${Object.keys(splits[0]!)
        .map((step) => `${step} ${f(median(splits.map((s) => s[step] ?? 0)))}`)
        .join(' · ')}`,
    ],
  }
}
