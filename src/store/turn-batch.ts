// Calls to Redis that arrive in the same event-loop turn go as one script call: a command costs
// the client more than the work it carries (about 15 µs of CPU for one settle, 3 µs each in a
// batch of eight, docs/benchmarks-log.md "Settlements in batches"). Settlements (lua/settle.lua)
// are never waited for by their
// client, so they always gather until the turn's I/O is done. Admissions (lua/admit.lua) are
// waited for, so they are eager: one that finds the batcher idle goes out at once, alone, and a
// lone call never waits for the rest of the turn; those that follow while it is out gather for
// the end of the turn (docs/benchmarks-log.md "Admissions in batches").
// Each input still gets its own answer; a failed round trip fails each of its inputs, and each
// then takes its own failure path (billing/settlement.ts, inference/admission.ts).

export interface TurnBatchOptions {
  /** An input that finds nothing queued and nothing out goes at once, alone. */
  eager?: boolean
  /** When a gathered batch goes (tests run it by hand). */
  schedule?: (flush: () => void) => void
}

export class TurnBatch<In, Out> {
  private queue: { input: In; resolve: (out: Out) => void; reject: (e: unknown) => void }[] = []
  private scheduled = false
  /** Round trips sent and not answered yet. */
  private out = 0
  private readonly eager: boolean
  private readonly schedule: (flush: () => void) => void

  /** `send` answers one result per input, in order; `max` inputs at most per call. */
  constructor(
    private readonly send: (inputs: In[]) => Promise<Out[]>,
    private readonly max: number,
    options: TurnBatchOptions = {},
  ) {
    this.eager = options.eager ?? false
    this.schedule = options.schedule ?? setImmediate
  }

  add(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject })
      if (this.queue.length >= this.max || (this.eager && this.out === 0 && this.queue.length === 1)) this.flush()
      else this.later()
    })
  }

  private later(): void {
    if (this.scheduled) return
    this.scheduled = true
    this.schedule(() => {
      this.scheduled = false
      this.flush()
    })
  }

  private flush(): void {
    const batch = this.queue.splice(0, this.max)
    if (this.queue.length > 0) this.later()
    if (batch.length === 0) return
    let sent: Promise<Out[]>
    try {
      sent = this.send(batch.map((b) => b.input))
    } catch (e) {
      sent = Promise.reject(e)
    }
    this.out++
    sent.then(
      (outs) => {
        this.out--
        for (const [i, b] of batch.entries()) b.resolve(outs[i]!)
      },
      (e) => {
        this.out--
        for (const b of batch) b.reject(e)
      },
    )
  }
}
