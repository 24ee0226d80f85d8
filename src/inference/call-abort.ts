// A call's upstream work stops when its client goes away or when a drain's grace ends
// (docs/drain.md): the call listens to both once, says which it was, and aborts the upstream
// attempt under way (each attempt has its own controller, which also carries its timeout) or
// ends the retry backoff it waits in.
import { GatewayError } from '../core/errors.ts'
import type { Cut } from './inflight.ts'

export type AbortCause = 'client' | 'shutdown'

export interface CallAbort {
  /** A controller for the next upstream attempt: aborted when the call is (already, if it was). */
  attempt(): AbortController
  cause(): AbortCause | undefined
  /** Throws when the call was aborted, so failover does not try the next route. */
  check(): void
  /** Resolves when `wait` does, or at once when the call is aborted (a retry's backoff). */
  interruptible(wait: Promise<void>): Promise<void>
  /** Stop reacting to the client and the shutdown (the call answered or became a stream). */
  release(): void
}

const aborted = () => new Error('aborted')

export function callAbort(client: AbortSignal, shutdown: Cut): CallAbort {
  let why: AbortCause | undefined
  let current: AbortController | undefined
  let released = false
  /** Ends the backoff under way, if any. */
  let interrupt: (() => void) | undefined
  const onClient = () => {
    if (released) return
    why ??= 'client'
    current?.abort(aborted())
    interrupt?.()
  }
  const onShutdown = () => {
    why ??= 'shutdown'
    current?.abort(aborted())
    interrupt?.()
  }
  if (shutdown.aborted) why = 'shutdown'
  else if (client.aborted) why = 'client'
  client.addEventListener('abort', onClient)
  shutdown.watch(onShutdown)
  return {
    attempt() {
      current = new AbortController()
      if (why) current.abort(aborted())
      return current
    },
    cause: () => why,
    check() {
      if (why)
        throw new GatewayError(why === 'shutdown' ? 'SHUTTING_DOWN' : 'UPSTREAM_ERROR', 'The call was cut before the upstream answered.')
    },
    interruptible(wait) {
      if (why) return Promise.resolve()
      return new Promise<void>((resolve) => {
        interrupt = resolve
        wait.then(resolve)
      }).finally(() => (interrupt = undefined))
    },
    release() {
      // The client listener stays on the request's own signal and goes with it: a released call
      // ignores it, which costs less than removing it.
      released = true
      shutdown.unwatch(onShutdown)
    },
  }
}
