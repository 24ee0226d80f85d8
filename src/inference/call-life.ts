// One call's lifecycle (docs/failover.md "Who ended the call"): the one object that decides how
// the call ended. The first end reported wins — by the stream pipe, the answer, the pipeline's
// error path, the client going away or the drain's grace ending — and is final. Ending aborts the
// upstream attempt under way with a CallEnded reason (transport tells it from its own timeout),
// wakes a retry's backoff, and tells the stream pipe when it was not the pipe that decided.
import { CallEnded, type EndCause } from '../core/call-end.ts'
import type { Cut } from './inflight.ts'

export class CallLife {
  private cause: EndCause | undefined
  private current: AbortController | undefined
  private wake: (() => void) | undefined
  private listener: ((end: EndCause) => void) | undefined
  private readonly onDrain = () => this.end({ kind: 'drain' })

  constructor(
    client: AbortSignal,
    private readonly drain: Cut,
  ) {
    if (drain.aborted) this.cause = { kind: 'drain' }
    else if (client.aborted) this.cause = { kind: 'client_left' }
    // Stays on the request's own signal and goes with it: an ended call ignores it.
    client.addEventListener('abort', () => this.end({ kind: 'client_left' }))
    drain.watch(this.onDrain)
  }

  /** How the call ended, once it has. */
  get ended(): EndCause | undefined {
    return this.cause
  }

  /** Reports an end; returns whether it was the first (the one that stands). */
  end(cause: EndCause): boolean {
    if (this.cause) return false
    this.cause = cause
    this.drain.unwatch(this.onDrain)
    // A completed upstream call is left alone (its connection goes back to the pool).
    if (cause.kind !== 'completed') this.current?.abort(new CallEnded(cause))
    this.wake?.()
    this.listener?.(cause)
    return true
  }

  /** The controller of the next upstream attempt: aborted when the call ends (already, if it has). */
  attempt(): AbortController {
    this.current = new AbortController()
    if (this.cause) this.current.abort(new CallEnded(this.cause))
    return this.current
  }

  /** Resolves when `wait` does, or at once when the call ends (a retry's backoff). */
  pause(wait: Promise<void>): Promise<void> {
    if (this.cause) return Promise.resolve()
    return new Promise<void>((resolve) => {
      this.wake = resolve
      wait.then(resolve)
    }).finally(() => (this.wake = undefined))
  }

  /** The stream pipe's hook: called once with the end, whoever reported it. */
  onEnd(fn: (end: EndCause) => void): void {
    this.listener = fn
    if (this.cause) fn(this.cause)
  }
}
