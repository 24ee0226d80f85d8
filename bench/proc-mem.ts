// Memory of a process from /proc/<pid>/status (Linux): resident set now and its peak.

export interface Mem {
  /** VmRSS, MB. */
  rss: number
  /** VmHWM (peak resident set since start or since `resetPeak`), MB. */
  hwm: number
}

export async function mem(pid: number): Promise<Mem> {
  const status = await Bun.file(`/proc/${pid}/status`).text()
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 }
}

/** Resets VmHWM to the current RSS (writing 5 to clear_refs); false when not permitted. */
export async function resetPeak(pid: number): Promise<boolean> {
  try {
    await Bun.write(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

/** Samples VmRSS every `everyMs` until stopped (or the process is gone); gives the largest sample. */
export function sampleRss(pid: number, everyMs = 250): { stop: () => Promise<number> } {
  let peak = 0
  let running = true
  const loop = (async () => {
    while (running) {
      const m = await mem(pid).catch(() => undefined)
      if (!m) return
      peak = Math.max(peak, m.rss)
      await Bun.sleep(everyMs)
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return Math.max(peak, (await mem(pid)).rss)
    },
  }
}
