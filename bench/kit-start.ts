// `tollgate/testing` start time (docs/testing.md "Start time"): from startTollgate() to the first
// answered call, cold (a fresh process's first instance) and warm (the next ones in the same
// process), each run in its own process (kit-start-child.ts). Targets: ≤ 1 s cold, ≤ 300 ms warm.
import { median } from './stats.ts'

export interface KitStartResult {
  coldMs: number
  warmMs: number
  importMs: number
  lines: string[]
}

export async function runKitStart(o: { processes: number; warm: number }): Promise<KitStartResult> {
  const runs: { importMs: number; coldMs: number; warmMs: number[] }[] = []
  for (let i = 0; i < o.processes; i++) {
    const proc = Bun.spawn([process.execPath, `${import.meta.dir}/kit-start-child.ts`, String(o.warm)], {
      stdout: 'pipe',
      stderr: 'inherit',
    })
    const out = await new Response(proc.stdout).text()
    if ((await proc.exited) !== 0) throw new Error(`kit-start-child exited ${proc.exitCode}`)
    runs.push(JSON.parse(out.trim().split('\n').at(-1)!))
  }
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
    ],
  }
}
