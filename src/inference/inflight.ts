// The calls, streams and settlements this process still has open, for graceful shutdown.

/**
 * Settlements, admitted calls and streams still running; graceful shutdown (docs/drain.md)
 * stops admitting, waits for `calls` to reach zero, then cuts what is left.
 */
export class InFlight {
  private readonly tasks = new Set<Promise<unknown>>()
  private waiters: (() => void)[] = []
  streams = 0
  /** Admitted and not yet settled, streaming or not. */
  calls = 0
  /** Set at SIGTERM: no new call is admitted. */
  draining = false
  /** Aborted when the drain's grace ends: every call still open is cut and settled. */
  readonly cut = new AbortController()

  track(p: Promise<unknown>): void {
    this.tasks.add(p)
    p.finally(() => this.tasks.delete(p))
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
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks])
  }

  get size(): number {
    return this.tasks.size + this.streams
  }
}
