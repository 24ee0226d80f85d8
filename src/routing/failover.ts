// Routes are tried in catalog order, each as its policy allows (docs/failover.md): a route whose
// breaker is open is skipped; a retryable failure before the first byte is retried on the same
// route (backoff or Retry-After, within the call's deadline) or moves on to the next route; a
// failure that is the request's own (400, context length) ends the call at once. All routes
// failed or skipped → 502 UPSTREAM_ERROR.
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

/**
 * `pause` waits out a retry's backoff: the router's clock by default; the pipeline's ends early
 * when the call is aborted (the next attempt then refuses to start).
 */
export async function withFailover<T>(
  router: Router,
  routes: readonly Route[],
  attempt: (route: Route, ctx: AttemptContext) => Promise<T>,
  requestId: string,
  pause: (ms: number) => Promise<void> = router.sleep,
): Promise<Served<T>> {
  const started = router.now()
  let last: { err: GatewayError; gateway: string } | undefined
  let tried = 0
  for (const [i, route] of routes.entries()) {
    if (!(await router.breakers.admit(route, requestId))) continue
    if (tried++ > 0) {
      router.counters.failovers++
      if (last?.gateway) router.counters.listener({ kind: 'failover', gateway: last.gateway })
      router.log.info('failing over', { requestId, gateway: route.gateway.id, position: i })
    }
    const ctx = { hasNext: i < routes.length - 1 }
    const r = await tryRoute(router, route, () => attempt(route, ctx), started, requestId, pause)
    if (r.ok) return { value: r.value, route }
    last = { err: r.err, gateway: route.gateway.id }
  }
  if (tried === 0)
    throw new GatewayError('UPSTREAM_ERROR', 'Every upstream gateway for this model is failing; try again shortly.', {
      cause: 'all breakers open',
    })
  throw new GatewayError('UPSTREAM_ERROR', 'Every upstream gateway for this model failed; try again shortly.', { cause: last?.err })
}

/** Attempts on one route: the first try and its retries. Throws only a non-retryable failure. */
async function tryRoute<T>(
  router: Router,
  route: Route,
  run: () => Promise<T>,
  started: number,
  requestId: string,
  pause: (ms: number) => Promise<void>,
): Promise<Tried<T>> {
  const gateway = route.gateway.id
  for (let retries = 0; ; retries++) {
    router.counters.attempts++
    try {
      const value = await run()
      router.breakers.record(route)
      return { ok: true, value }
    } catch (e) {
      const err =
        e instanceof GatewayError ? e : new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', { cause: e, retryable: true })
      router.breakers.record(route, err)
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
      router.counters.retries++
      router.counters.listener({ kind: 'retry', gateway })
      router.log.info('retrying route', { requestId, gateway, retry: retries + 1, delayMs: next.delayMs })
      await pause(next.delayMs)
    }
  }
}
