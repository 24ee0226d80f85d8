// A call's upstream work stops when its client goes away or when a drain's grace ends
// (docs/drain.md): one per-call signal joins both, and says which it was.
import { GatewayError } from '../core/errors.ts'

export type AbortCause = 'client' | 'shutdown'

export interface CallAbort {
  signal: AbortSignal
  cause(): AbortCause | undefined
  /** Throws when the call was aborted, so failover does not try the next route. */
  check(): void
  /** Detach from the client and shutdown signals (the call answered or became a stream). */
  release(): void
}

export function callAbort(client: AbortSignal, shutdown: AbortSignal): CallAbort {
  const ctl = new AbortController()
  let why: AbortCause | undefined
  const onClient = () => {
    why ??= 'client'
    ctl.abort(new Error('client closed'))
  }
  const onShutdown = () => {
    why ??= 'shutdown'
    ctl.abort(new Error('shutting down'))
  }
  if (shutdown.aborted) onShutdown()
  else if (client.aborted) onClient()
  client.addEventListener('abort', onClient, { once: true })
  shutdown.addEventListener('abort', onShutdown, { once: true })
  return {
    signal: ctl.signal,
    cause: () => why,
    check() {
      if (why)
        throw new GatewayError(why === 'shutdown' ? 'SHUTTING_DOWN' : 'UPSTREAM_ERROR', 'The call was cut before the upstream answered.')
    },
    release() {
      client.removeEventListener('abort', onClient)
      shutdown.removeEventListener('abort', onShutdown)
    },
  }
}
