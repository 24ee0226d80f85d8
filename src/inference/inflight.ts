// The calls, streams and settlements this process still has open, for graceful shutdown.

/**
 * The end of a drain's grace as each open call watches it: joining and leaving is O(1) whatever
 * the number of open calls (a listener list on one shared AbortSignal is searched on every removal).
 */
export class Cut {
  private readonly watchers = new Set<() => void>()
  aborted = false

  watch(fn: () => void): void {
    this.watchers.add(fn)
  }

  unwatch(fn: () => void): void {
    this.watchers.delete(fn)
  }

  /** Calls every watcher once, in the order they joined. */
  fire(): void {
    if (this.aborted) return
    this.aborted = true
    for (const w of this.watchers) w()
    this.watchers.clear()
  }
}

/**
 * Settlements, admitted calls and streams still running; graceful shutdown (docs/drain.md)
 * stops admitting, waits for `calls` to reach zero, then cuts what is left.
 */
export class InFlight {
  /** Tracked tasks not yet settled: a count, so a task costs no Set entry or closure of its own. */
  private tasks = 0
  /** Who waits for the tracked tasks to reach zero (settled()). */
  private idle: (() => void)[] = []
  private waiters: (() => void)[] = []
  private readonly taskDone = () => {
    if (--this.tasks > 0) return
    const idle = this.idle
    this.idle = []
    for (const w of idle) w()
  }
  streams = 0
  /** Admitted and not yet settled, streaming or not. */
  calls = 0
  /** Set at SIGTERM: no new call is admitted. */
  draining = false
  /** Fired when the drain's grace ends: every call still open is cut and settled (its CallLife watches it). */
  readonly cut = new Cut()

  track(p: Promise<unknown>): void {
    this.tasks++
    p.then(this.taskDone, this.taskDone)
  }

  callEnded(): void {
    this.calls--
    if (this.calls > 0) return
    for (const w of this.waiters) w()
    this.waiters = []
  }

  /** Resolves once no admitted call is open, or after `ms`. Returns whether all ended. */
  async callsEnded(ms: number): Promise<boolean> {
    if (this.calls > 0) {
      let timer: Timer | undefined
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms)
        this.waiters.push(resolve)
      })
      clearTimeout(timer)
    }
    return this.calls <= 0
  }

  async settled(): Promise<void> {
    while (this.tasks > 0) await new Promise<void>((resolve) => this.idle.push(resolve))
  }

  get size(): number {
    return this.tasks + this.streams
  }
}
