// Routes are tried in the order given (routing/route-order.ts), each as its policy allows
// (docs/failover.md): a route cooling after a long 429, whose breaker is open, or at its
// upstream rpm/tpm is skipped, and a skip is no failure; a retryable failure before the first byte is retried on the same
// route (backoff or Retry-After, within the call's deadline) or moves on to the next route; a
// failure that is the request's own (400, context length) ends the call at once. All routes
// failed → 502 UPSTREAM_ERROR; all skipped → 503 UPSTREAM_UNAVAILABLE with Retry-After. An attempt whose call ended on the caller's side (client gone, drain) is no
// upstream failure: no breaker, retry or counter sees it (docs/failover.md "Who ended the call").
import { CallEnded, type EndCause, endedByCaller } from '../core/call-end.ts'
import { GatewayError } from '../core/errors.ts'
import type { Route } from '../core/gateway.ts'
import { afterFailure } from './retry-policy.ts'
import type { RouteQuota } from '../store/route-limits.ts'
import type { Router } from './router.ts'

/** What failover returns: the attempt's value and the route that gave it. */
export interface Answered<T> {
  value: T
  route: Route
  /** What was taken from the route's rpm/tpm window: corrected with the real usage (settleQuota). */
  quota?: RouteQuota
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

/** Why a route was left untried: how long until it may be tried again. */
type Skip = { waitMs: number }
/** A route entered (with what its window gave, if it has limits), or skipped. */
type Entry = { skip: Skip; quota?: undefined } | { skip?: undefined; quota?: RouteQuota }

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
  /** The call's token estimate, counted against a route's tpm. */
  tokens = 0,
): Promise<Answered<T>> {
  const started = router.now()
  let last: { err: GatewayError; gateway: string } | undefined
  let tried = 0
  const skips: Skip[] = []
  for (const [i, route] of routes.entries()) {
    stillOn(call)
    const entry = await enter(router, route, requestId, tokens)
    if (entry.skip) {
      skips.push(entry.skip)
      continue
    }
    if (tried++ > 0) {
      router.counters.failovers++
      if (last?.gateway) router.counters.listener({ kind: 'failover', gateway: last.gateway })
      router.log.info('failing over', { requestId, gateway: route.gateway.id, position: i })
    }
    const ctx = { hasNext: i < routes.length - 1 }
    const r = await tryRoute(router, route, () => attempt(route, ctx), started, requestId, call).catch((e) => {
      // A refusal used no tokens; a call ended meanwhile keeps its estimate (nobody knows).
      if (!endedByCaller(e)) settleQuota(router, entry.quota, 0)
      throw e
    })
    if (r.ok) return { value: r.value, route, quota: entry.quota }
    settleQuota(router, entry.quota, 0)
    last = { err: r.err, gateway: route.gateway.id }
  }
  if (tried === 0) throw allResting(router, routes, skips)
  throw new GatewayError('UPSTREAM_ERROR', 'Every upstream gateway for this model failed; try again shortly.', { cause: last?.err })
}

/**
 * Whether `route` is left out of this call: cooling after a long 429, breaker open, or its
 * upstream quota spent (a probe claimed for it is then freed). A quota the store cannot check
 * lets the call through: the upstream's own limit still stands behind it.
 */
async function enter(router: Router, route: Route, requestId: string, tokens: number): Promise<Entry> {
  const cooling = router.cooling.waitMs(route)
  if (cooling > 0) return { skip: { waitMs: cooling } }
  if (!(await router.breakers.admit(route, requestId))) return { skip: { waitMs: router.breakers.nextProbeInMs([route]) } }
  if (route.rpm === undefined && route.tpm === undefined) return {}
  const quota = { route: `${route.gateway.id}|${route.upstreamModel}`, rpm: route.rpm, tpm: route.tpm, tokens, nowMs: router.now() }
  const taken = await router.limits.take(quota).catch((e) => {
    router.log.warn('route limit check failed', { requestId, gateway: route.gateway.id, err: String(e) })
    return undefined
  })
  if (!taken) return {}
  if (taken.ok) return { quota }
  router.breakers.release(route, requestId)
  router.counters.limitSkips++
  router.log.info('route skipped: upstream limit', { requestId, gateway: route.gateway.id, limit: taken.reason })
  return { skip: { waitMs: taken.waitMs } }
}

/** Replaces a taken estimate by the real token count, off the call's path (docs/failover.md "Upstream limits"). */
export function settleQuota(router: Pick<Router, 'limits' | 'log'>, quota: RouteQuota | undefined, tokens: number): void {
  if (!quota?.tpm) return
  router.limits
    .settle(quota, tokens)
    .catch((e) => router.log.warn('route token count not corrected', { route: quota.route, err: String(e) }))
}

/** Every route skipped: 503, and Retry-After says when the first may be tried again. */
function allResting(router: Router, routes: readonly Route[], skips: Skip[]): GatewayError {
  const soonest = skips.length > 0 ? Math.min(...skips.map((s) => s.waitMs)) : router.breakers.nextProbeInMs(routes)
  const seconds = Math.max(1, Math.ceil(soonest / 1000))
  return new GatewayError('UPSTREAM_UNAVAILABLE', 'Every upstream gateway for this model is resting or at its limit; retry shortly.', {
    cause: 'all routes skipped',
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
      if (call.ended || endedByCaller(e)) {
        router.breakers.release(route, requestId)
        throw call.ended ? new CallEnded(call.ended) : e
      }
      const err =
        e instanceof GatewayError ? e : new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', { cause: e, retryable: true })
      if (coolsRoute(route, err)) {
        // A quota answer, not ill health: the route rests for as long as asked, the breaker hears nothing.
        router.breakers.release(route, requestId)
        router.cooling.cool(route, err.extra.upstream!.retryAfterMs!, requestId)
        return { ok: false, err }
      }
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

/** A 429 whose Retry-After is beyond what the gateway waits in place (docs/failover.md "429 cools a route"). */
function coolsRoute(route: Route, err: GatewayError): boolean {
  const u = err.extra.upstream
  return u?.kind === 'status' && u.status === 429 && u.retryAfterMs !== undefined && u.retryAfterMs > route.gateway.policy.retryAfterMaxMs
}
