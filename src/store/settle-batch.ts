// Settlements of one shard that end in the same event-loop turn go to Redis as one script call
// (lua/settle.lua): a command costs the client more than the work it carries (about 15 µs of
// CPU for one settle, 3 µs each in a batch of eight, docs/benchmarks.md), and a settlement is
// never waited for by its client, so gathering until the turn's I/O is done costs no latency.
// Each settlement still gets its own answer; a failed round trip fails each of them, and each
// then takes the settlement fallback on its own (billing/settlement.ts).

export class SettleBatch<In, Out> {
  private queue: { input: In; resolve: (out: Out) => void; reject: (e: unknown) => void }[] = []
  private scheduled = false

  /** `send` answers one result per input, in order; `max` inputs at most per call. */
  constructor(
    private readonly send: (inputs: In[]) => Promise<Out[]>,
    private readonly max: number,
    private readonly schedule: (flush: () => void) => void = setImmediate,
  ) {}

  add(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject })
      if (this.queue.length >= this.max) this.flush()
      else if (!this.scheduled) {
        this.scheduled = true
        this.schedule(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.scheduled = false
    const batch = this.queue.splice(0, this.max)
    if (this.queue.length > 0 && !this.scheduled) {
      this.scheduled = true
      this.schedule(() => this.flush())
    }
    if (batch.length === 0) return
    let sent: Promise<Out[]>
    try {
      sent = this.send(batch.map((b) => b.input))
    } catch (e) {
      sent = Promise.reject(e)
    }
    sent.then(
      (outs) => {
        for (const [i, b] of batch.entries()) b.resolve(outs[i]!)
      },
      (e) => {
        for (const b of batch) b.reject(e)
      },
    )
  }
}
