// A soft memory limit (docs/drain.md "Memory"). JavaScriptCore decides when to collect from how
// its heap grows; bytes streamed to clients make short-lived garbage (decoded text, parsed chunks,
// encoded writes) much faster than that, and a burst of it — 200 slow clients taking in what their
// kernel buffers hold — lifts the resident size by hundreds of MB before a collection comes. Once
// the process is over the limit, a full collection runs, at most one per interval and never more
// than `maxShare` of the time (the time since the last one is at least its duration / maxShare),
// and again only once the process has grown by `regrowth` since the last one left it: a live set
// above the limit does not make the gateway collect over and over. Pure: the clock, the size and
// the collector are given.

export interface MemoryLimitOptions {
  limitBytes: number
  /** Growth over the size a collection left that allows the next one (default: limit / 8). */
  regrowthBytes?: number
  /** Most of the process's time collections may take (default 10 %). */
  maxShare?: number
  rss: () => number
  /** Runs a full collection. */
  collect: () => void
  now: () => number
}

export class MemoryLimit {
  private readonly regrowth: number
  private readonly maxShare: number
  private nextAt = 0
  /** Resident size right after the last collection; 0 before the first. */
  private floor = 0
  collections = 0

  constructor(private readonly o: MemoryLimitOptions) {
    this.regrowth = o.regrowthBytes ?? Math.floor(o.limitBytes / 8)
    this.maxShare = o.maxShare ?? 0.1
  }

  /** Collects if the process is over the limit and a collection is due. True if one ran. */
  check(): boolean {
    const t = this.o.now()
    if (t < this.nextAt) return false
    const size = this.o.rss()
    if (size <= this.o.limitBytes) {
      this.floor = 0
      return false
    }
    if (size < this.floor + this.regrowth) return false
    this.o.collect()
    const end = this.o.now()
    this.collections++
    this.floor = this.o.rss()
    this.nextAt = end + (end - t) / this.maxShare
    return true
  }
}

/** Checks the process every `everyMs` (the timer does not keep it alive); stop() ends it. */
export function startMemoryLimit(limitBytes: number, onCollect: () => void, everyMs = 100): { limit: MemoryLimit; stop: () => void } {
  const limit = new MemoryLimit({
    limitBytes,
    rss: () => process.memoryUsage.rss(),
    collect: () => Bun.gc(true),
    now: () => performance.now(),
  })
  const timer = setInterval(() => limit.check() && onCollect(), everyMs)
  timer.unref()
  return { limit, stop: () => clearInterval(timer) }
}
