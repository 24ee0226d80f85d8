// Routes are tried in catalog order, each as its policy allows (docs/failover.md): a route whose
// breaker is open is skipped; a retryable failure before the first byte is retried on the same
// route (backoff or Retry-After, within the call's deadline) or moves on to the next route; a
// failure that is the request's own (400, context length) ends the call at once. All routes
// failed → 502 UPSTREAM_ERROR; all skipped by open breakers → 503 UPSTREAM_UNAVAILABLE with
// Retry-After. An attempt whose call ended on the caller's side (client gone, drain) is no
// upstream failure: no breaker, retry or counter sees it (docs/failover.md "Who ended the call").
import { CallEnded, type EndCause } from '../core/call-end.ts'
import { GatewayError } from '../core/errors.ts'
import type { Route } from '../core/gateway.ts'
import { afterFailure } from './retry-policy.ts'
import type { Router } from './router.ts'

export interface Served<T> {
  value: T
  route: Route
}

export interface AttemptContext {
  /** Another route follows this one: a slow first token may still fail over. */
  hasNext: boolean
}

type Tried<T> = { ok: true; value: T } | { ok: false; err: GatewayError }

/** The call as failover sees it (inference/call-life.ts): whether it ended, and a backoff it cuts short. */
export interface CallView {
  readonly ended: EndCause | undefined
  pause(wait: Promise<void>): Promise<void>
}

/** A call nobody ends but its attempts (tests, tools). */
const OWN_CALL: CallView = { ended: undefined, pause: (wait) => wait }

/** Rejects with CallEnded once the call has ended: failover tries nothing more. */
function stillOn(call: CallView): void {
  if (call.ended) throw new CallEnded(call.ended)
}

export async function withFailover<T>(
  router: Router,
  routes: readonly Route[],
  attempt: (route: Route, ctx: AttemptContext) => Promise<T>,
  requestId: string,
  call: CallView = OWN_CALL,
): Promise<Served<T>> {
  const started = router.now()
  let last: { err: GatewayError; gateway: string } | undefined
  let tried = 0
  for (const [i, route] of routes.entries()) {
    stillOn(call)
    if (!(await router.breakers.admit(route, requestId))) continue
    if (tried++ > 0) {
      router.counters.failovers++
      if (last?.gateway) router.counters.listener({ kind: 'failover', gateway: last.gateway })
      router.log.info('failing over', { requestId, gateway: route.gateway.id, position: i })
    }
    const ctx = { hasNext: i < routes.length - 1 }
    const r = await tryRoute(router, route, () => attempt(route, ctx), started, requestId, call)
    if (r.ok) return { value: r.value, route }
    last = { err: r.err, gateway: route.gateway.id }
  }
  if (tried === 0) throw allResting(router, routes)
  throw new GatewayError('UPSTREAM_ERROR', 'Every upstream gateway for this model failed; try again shortly.', { cause: last?.err })
}

/** Every route skipped by an open breaker: 503, and Retry-After says when the first may be probed. */
function allResting(router: Router, routes: readonly Route[]): GatewayError {
  const seconds = Math.max(1, Math.ceil(router.breakers.nextProbeInMs(routes) / 1000))
  return new GatewayError('UPSTREAM_UNAVAILABLE', 'Every upstream gateway for this model is resting after failures; retry shortly.', {
    cause: 'all breakers open',
    headers: { 'retry-after': String(seconds) },
  })
}

/**
 * Attempts on one route: the first try and its retries. Throws a non-retryable failure, or
 * CallEnded when the call ended meanwhile (the attempt then counts for nothing).
 */
async function tryRoute<T>(
  router: Router,
  route: Route,
  run: () => Promise<T>,
  started: number,
  requestId: string,
  call: CallView,
): Promise<Tried<T>> {
  const gateway = route.gateway.id
  for (let retries = 0; ; retries++) {
    router.counters.attempts++
    try {
      const value = await run()
      router.breakers.record(route)
      return { ok: true, value }
    } catch (e) {
      if (call.ended || e instanceof CallEnded) {
        router.breakers.release(route, requestId)
        throw call.ended ? new CallEnded(call.ended) : e
      }
      const err =
        e instanceof GatewayError ? e : new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', { cause: e, retryable: true })
      // Only what the upstream did speaks of its health: a request that could not be built for
      // this route (its own fault, found before any upstream call) records nothing.
      if (err.extra.upstream) router.breakers.record(route, err)
      else router.breakers.release(route, requestId)
      if (err.extra.upstream?.kind === 'first-token') router.counters.firstTokenTimeouts++
      router.log.warn('upstream attempt failed', {
        requestId,
        gateway,
        attempt: retries + 1,
        code: err.code,
        upstream: err.extra.upstream,
        cause: err.cause,
      })
      if (!err.retryable) throw err
      const next = afterFailure(route.gateway.policy, err, retries, router.now() - started, route.gateway.timeoutMs)
      if (next.action === 'next') {
        router.log.info('leaving route', { requestId, gateway, reason: next.reason })
        return { ok: false, err }
      }
      router.log.info('retrying route', { requestId, gateway, retry: retries + 1, delayMs: next.delayMs })
      router.counters.backingOff++
      await call.pause(router.sleep(next.delayMs)).finally(() => router.counters.backingOff--)
      stillOn(call)
      router.counters.retries++
      router.counters.listener({ kind: 'retry', gateway })
    }
  }
}
