// A soft memory limit (docs/drain.md "Memory"). JavaScriptCore decides when to collect from how
// its heap grows; bytes streamed to clients make short-lived garbage (decoded text, parsed chunks,
// encoded writes) much faster than that, and a burst of it — 200 slow clients taking in what their
// kernel buffers hold — lifts the resident size by a hundred MB and more before a collection comes.
// Once the process is over the limit, a full collection runs:
// - never more than `maxShare` of the time (the time since the last one is at least its
//   duration / maxShare);
// - again only once the process has grown by `regrowth` since the last one left it, so a live set
//   above the limit does not make the gateway collect over and over;
// - not at all while a collection took longer than `maxPauseMs`, until the process is back under
//   the limit: a full collection stops the world, and with a large live heap (thousands of open
//   streams) that pause would cost every client more than the memory is worth.
// Pure: the clock, the size and the collector are given.

export interface MemoryLimitOptions {
  limitBytes: number
  /** Growth over the size a collection left that allows the next one (default: limit / 8). */
  regrowthBytes?: number
  /** Most of the process's time collections may take (default 10 %). */
  maxShare?: number
  /** A collection longer than this suspends the limit until the process is under it (default 100 ms). */
  maxPauseMs?: number
  rss: () => number
  /** Runs a full collection. */
  collect: () => void
  now: () => number
}

export class MemoryLimit {
  private readonly regrowth: number
  private readonly maxShare: number
  private readonly maxPauseMs: number
  private nextAt = 0
  /** Resident size right after the last collection; 0 before the first. */
  private floor = 0
  private suspended = false

  constructor(private readonly o: MemoryLimitOptions) {
    this.regrowth = o.regrowthBytes ?? Math.floor(o.limitBytes / 8)
    this.maxShare = o.maxShare ?? 0.1
    this.maxPauseMs = o.maxPauseMs ?? 100
  }

  /** Collects if the process is over the limit and a collection is due. True if one ran. */
  check(): boolean {
    const t = this.o.now()
    if (t < this.nextAt) return false
    const size = this.o.rss()
    if (size <= this.o.limitBytes) {
      this.floor = 0
      this.suspended = false
      return false
    }
    if (this.suspended || size < this.floor + this.regrowth) return false
    this.o.collect()
    const end = this.o.now()
    this.floor = this.o.rss()
    this.nextAt = end + (end - t) / this.maxShare
    this.suspended = end - t > this.maxPauseMs
    return true
  }
}

/** Half the memory limit of the process's container (cgroup v2, then v1), or 0 when it has none. */
export function defaultSoftLimit(read: (path: string) => string | undefined): number {
  for (const path of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    const text = read(path)?.trim()
    if (text === undefined) continue
    const bytes = Number(text)
    // cgroup v2 says "max", v1 a number near 2^63 when no limit is set.
    return Number.isSafeInteger(bytes) && bytes > 0 ? Math.floor(bytes / 2) : 0
  }
  return 0
}

/** Checks the process every `everyMs` (the timer does not keep it alive); returns what stops it. */
export function startMemoryLimit(limitBytes: number, onCollect: () => void, everyMs = 100): () => void {
  const limit = new MemoryLimit({
    limitBytes,
    rss: () => process.memoryUsage.rss(),
    collect: () => Bun.gc(true),
    now: () => performance.now(),
  })
  const timer = setInterval(() => limit.check() && onCollect(), everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
