// The upstream call of a call (callUpstream): the model's routes in priority and weight order with failover (routing/), each
// attempt a pass-through when the upstream speaks the client's protocol, otherwise a translation
// through the canonical model. Its result is the first upstream that answered.
import type { CatalogModel } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import type { CRequest } from '../core/canonical.ts'
import { contextLengthError } from '../core/context-window.ts'
import { GatewayError } from '../core/errors.ts'
import type { Gateway, Route } from '../core/gateway.ts'
import type { CallObserver } from '../observability/call-observer.ts'
import type { Spoke } from '../protocols/spoke.ts'
import { adapterFor } from '../providers/registry.ts'
import { type UpstreamJson, type UpstreamStream, upstreamJson, upstreamStream } from '../providers/transport/http.ts'
import type { UpstreamAdapter } from '../providers/types.ts'
import { type AttemptContext, withFailover } from '../routing/failover.ts'
import { awaitFirstContent } from '../routing/first-token.ts'
import { preferRoute, routeId } from '../routing/route-order.ts'
import type { Router } from '../routing/router.ts'
import type { RouteQuota } from '../store/route-limits.ts'
import { STICKY_TTL_MS } from '../store/sticky-routes.ts'
import { cachePrefixKey } from './cache-prefix.ts'
import type { CallLife } from './call-life.ts'

interface ServedBy {
  /** The upstream speaks the client's protocol: its answer passes through. */
  native: boolean
  adapter: UpstreamAdapter
  gateway: Gateway
  /** The route that answered: a failure after the first byte counts on its breakers. */
  route: Route
  /** What the route's rpm/tpm window gave this call: corrected with its real usage once known. */
  quota?: RouteQuota
}
export type ServedStream = ServedBy & { stream: UpstreamStream }
export type ServedJson = ServedBy & { json: UpstreamJson }
export type Served = ServedStream | ServedJson

export interface UpstreamCallDeps {
  /** Breakers and failover counters (docs/failover.md). */
  router: Router
  config: Pick<Config, 'defaultMaxOutputTokens' | 'upstreamStreamClient'>
}

export interface UpstreamCallRequest<Body> {
  spoke: Spoke<Body>
  /** The client's body as sent (pass-through rewrites only its model). */
  raw: Record<string, unknown>
  body: Body
  stream: boolean
  model: CatalogModel
  requestId: string
  /** Client headers the upstream reads (spoke.passHeaders). */
  passHeaders: Record<string, string>
  life: CallLife
  obs: CallObserver
  /** The call's token estimate (prompt and output cap), counted against a route's tpm. */
  tokens: number
  /** The calling key: cache prefixes are kept apart per key (cache-prefix.ts). */
  keyId: string
}

export async function callUpstream<Body>(deps: UpstreamCallDeps, r: UpstreamCallRequest<Body>): Promise<Served> {
  let canonical: CRequest | undefined
  const own = r.spoke.upstream
  const attempt = async (route: Route, where: AttemptContext): Promise<Served> => {
    const gw = route.gateway
    const adapter = adapterFor(gw.protocol)
    const native = (adapter.speaks ?? gw.protocol) === r.spoke.native
    const upstreamBody = native
      ? adapter.passthroughBody(r.raw, route.upstreamModel, r.stream)
      : adapter.body((canonical ??= r.spoke.decode(r.body)), route.upstreamModel, deps.config.defaultMaxOutputTokens)
    const headers = adapter.headers(gw.apiKey, r.passHeaders)
    deps.router.load.started(route)
    try {
      const path = own?.path ?? adapter.modelPath?.(route.upstreamModel, r.stream) ?? adapter.path
      if (r.stream) {
        const stream = await streamAttempt(deps, gw, adapter, path, headers, upstreamBody, where, r.life.attempt())
        return { native, adapter, gateway: gw, route, stream }
      }
      const json = await upstreamJson(gw, path, headers, upstreamBody, r.life.attempt(), own?.read)
      deps.router.load.ended(route)
      return { native, adapter, gateway: gw, route, json }
    } catch (e) {
      deps.router.load.ended(route)
      throw e
    }
  }
  // A model with one route has nowhere else to go: no prefix is worked out, looked up or remembered.
  const prefix = r.model.routes.length > 1 ? cachePrefixKey(r.raw, r.keyId, r.model.id) : undefined
  // Without a prefix the order is known at once: no async step of its own.
  const routes = prefix ? await routesFor(deps.router, r.model, prefix) : deps.router.rotation.order(r.model.id, r.model.routes)
  const served = await withFailover(
    deps.router,
    routes,
    (route, ctx) => r.obs.attempt(route, r.model.id, () => attempt(route, ctx)),
    r.requestId,
    r.life,
    r.tokens,
  ).catch((e) => {
    throw e instanceof GatewayError && e.code === 'CONTEXT_LENGTH_EXCEEDED' ? contextLengthError(r.model.contextWindow) : e
  })
  // Awaited (one write) so that the next call with this prefix, on any instance, finds it.
  if (prefix)
    await deps.router.sticky
      .set(prefix, routeId(served.route), STICKY_TTL_MS)
      .catch((e) => deps.router.log.warn('sticky route not saved', { requestId: r.requestId, err: String(e) }))
  if (served.quota) served.value.quota = served.quota
  return served.value
}

/**
 * The model's routes for this call: priority and weight order, with the route that last served
 * the call's cache prefix first while it is remembered (docs/failover.md "Warm prompt caches"); it
 * is skipped like any other when resting or at its limit, and whoever serves instead is remembered.
 */
async function routesFor(router: Router, model: CatalogModel, prefix: string | undefined): Promise<Route[]> {
  const ordered = router.rotation.order(model.id, model.routes)
  if (!prefix || ordered.length < 2) return ordered
  const stuck = await router.sticky.get(prefix).catch(() => undefined)
  return stuck ? preferRoute(ordered, stuck) : ordered
}

/**
 * A stream's upstream call; when another route remains, it is committed only once its first
 * content event arrives within the gateway's firstTokenMs (headers included).
 */
async function streamAttempt(
  deps: UpstreamCallDeps,
  gw: Gateway,
  adapter: UpstreamAdapter,
  path: string,
  headers: Record<string, string>,
  body: string,
  where: AttemptContext,
  controller: AbortController,
): Promise<UpstreamStream> {
  const client = deps.config.upstreamStreamClient
  const deadline = gw.policy.firstTokenMs
  if (!where.hasNext || deadline >= gw.timeoutMs) return upstreamStream(gw, path, headers, body, client, { controller })
  const started = Date.now()
  const call = await upstreamStream(gw, path, headers, body, client, { timeoutMs: deadline, controller }).catch((e) => {
    // No headers within the first-token deadline is a slow first token, not a hang.
    if (!(e instanceof GatewayError) || e.extra.upstream?.kind !== 'timeout') throw e
    throw new GatewayError(e.code, e.message, { ...e.extra, upstream: { kind: 'first-token' } })
  })
  return awaitFirstContent(call, adapter.streamDecoder(), Math.max(1, deadline - (Date.now() - started)), gw.id, adapter.events?.())
}
