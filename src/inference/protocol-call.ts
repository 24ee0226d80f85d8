// One pipeline for every inbound protocol (the only place that joins protocols × providers ×
// billing × limits): auth → body → validate → model → admit → route with failover (same
// protocol: pass-through; otherwise: translation through the canonical model) → settle.
import { estimateDeliveredTokens, estimateUsage } from '../billing/estimate.ts'
import type { CRequest } from '../core/canonical.ts'
import { clientRetryHeaders, GatewayError } from '../core/errors.ts'
import type { Gateway, Route } from '../core/gateway.ts'
import type { Usage } from '../core/usage.ts'
import { readJsonBody } from '../http/body.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { newRequestId } from '../lib/ids.ts'
import { appendMemberJson } from '../lib/json-tokens.ts'
import { SSE_HEADERS } from '../lib/sse/encode.ts'
import type { UpstreamAdapter } from '../providers/types.ts'
import { adapterFor } from '../providers/registry.ts'
import { upstreamJson, upstreamStream, type UpstreamCall, type UpstreamJson } from '../providers/transport/http.ts'
import { withFailover, type AttemptContext } from '../routing/failover.ts'
import { awaitFirstContent } from '../routing/first-token.ts'
import { contextLengthError, promptCannotFit } from '../core/context-window.ts'
import { pipeStream, type StreamOutcome } from '../core/stream-pipe.ts'
import { admit, authenticate, logRejected, resolveModel, settle, settleFailure, type Call } from './call.ts'
import { callAbort } from './call-abort.ts'
import { abandonedUsage, holdLease, streamLeaseMs } from './lease.ts'
import type { InferenceDeps } from './deps.ts'
import type { CallContext, Inbound } from './inbound.ts'
import { translateTransform } from './translate-transform.ts'
import { CallObserver } from '../observability/call-observer.ts'

type Served = { native: boolean; adapter: UpstreamAdapter; gateway: Gateway } & ({ stream: UpstreamCall } | { json: UpstreamJson })

export async function protocolCall<Body>(
  deps: InferenceDeps,
  inbound: Inbound<Body>,
  req: Request,
  onStream?: () => void,
): Promise<Response> {
  const t0 = performance.now()
  const at = Date.now()
  const requestId = newRequestId(inbound.idPrefix)
  const obs = new CallObserver(deps.metrics, deps.tracer, deps.log, inbound.name, req.headers, requestId, t0)
  let call: Call | undefined
  let rejectLog: Parameters<typeof logRejected>[1] | undefined
  const abort = callAbort(req.signal, deps.inflight.cut.signal)
  try {
    const principal = await authenticate(deps, req.headers)
    rejectLog = { requestId, principal, model: '', protocol: inbound.name, stream: false, t0, at }
    const raw = (await readJsonBody(req, deps.config.maxBodyBytes)) as Record<string, unknown>
    if (raw && typeof raw === 'object' && typeof raw.model === 'string') rejectLog.model = raw.model
    const checked = inbound.validate(raw)
    if (!checked.ok) throw inbound.invalid(checked.issues)
    const body = checked.value
    inbound.check?.(body)
    const stream = inbound.stream(body)
    rejectLog.stream = stream
    const model = resolveModel(deps, inbound.model(body))
    obs.resolved(model.id, model.provider, stream)
    const est = inbound.estimateInput(body)
    if (promptCannotFit(est.promptChars, model.contextWindow)) throw contextLengthError(model.contextWindow)
    const estimate = estimateUsage(est.promptChars, {
      requested: est.maxTokens,
      choices: est.choices,
      defaultCap: deps.config.defaultMaxOutputTokens,
      contextWindow: model.contextWindow,
    })
    call = await obs.admission(admit(deps, { requestId, protocol: inbound.name, stream, principal, model, estimate, t0, at, obs }))
    const admitted = call
    const ctx: CallContext = {
      requestId,
      publicId: requestId,
      slug: model.id,
      created: Math.floor(at / 1000),
      serviceMode: principal.serviceMode,
    }
    const pass = inbound.passHeaders(req)
    let canonical: CRequest | undefined
    const attempt = async (route: Route, where: AttemptContext): Promise<Served> => {
      abort.check()
      const gw = route.gateway
      const adapter = adapterFor(gw.protocol)
      const native = gw.protocol === inbound.native
      const upstreamBody = native
        ? adapter.passthroughBody(raw, route.upstreamModel, stream)
        : adapter.body((canonical ??= inbound.decode(body)), route.upstreamModel, deps.config.defaultMaxOutputTokens)
      const headers = adapter.headers(gw.apiKey, pass)
      return stream
        ? { native, adapter, gateway: gw, stream: await streamAttempt(deps, gw, adapter, headers, upstreamBody, where, abort.signal) }
        : { native, adapter, gateway: gw, json: await upstreamJson(gw, adapter.path, headers, upstreamBody, abort.signal) }
    }
    const served = await withFailover(
      deps.router,
      model.routes,
      (route, ctx) => obs.attempt(route, () => attempt(route, ctx)),
      requestId,
    ).catch((e) => {
      throw e instanceof GatewayError && e.code === 'CONTEXT_LENGTH_EXCEEDED' ? contextLengthError(model.contextWindow) : e
    })
    abort.release()
    const headers = { 'x-request-id': requestId, ...rateHeaders(call.rate) }
    if ('stream' in served.value) {
      onStream?.()
      return streamResponse(deps, inbound, admitted, ctx, served.value as Served & { stream: UpstreamCall }, headers)
    }
    return jsonResponse(deps, inbound, admitted, ctx, served.value as Served & { json: UpstreamJson }, headers)
  } catch (e) {
    abort.release()
    const cut = call && abort.cause()
    const err =
      cut === 'shutdown'
        ? new GatewayError('SHUTTING_DOWN', 'This instance is shutting down; retry the request.', { headers: { 'retry-after': '1' } })
        : e instanceof GatewayError
          ? e
          : new GatewayError('INTERNAL', 'Internal error.', { cause: e })
    if (err.code === 'INTERNAL') deps.log.error(`${inbound.name} request failed`, { requestId, err: String(err.cause ?? err) })
    // Cut while the upstream worked on it (client gone, drain over): billed its prompt estimate,
    // as a stream cut before its first frame (docs/drain.md).
    if (call && cut)
      settle(deps, call, {
        status: cut === 'client' ? 499 : 503,
        errorCode: cut === 'client' ? 'CLIENT_CLOSED' : err.code,
        gateway: null,
        usage: abandonedUsage(call.estimate),
        usageSource: 'estimate',
      })
    else if (call) settleFailure(deps, call, err, null)
    else if (rejectLog) logRejected(deps, rejectLog, err)
    const { status, body } = inbound.renderError(err)
    obs.end(status, err.code)
    return new Response(body, {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...clientRetryHeaders(err), ...err.extra.headers },
    })
  }
}

/**
 * A stream's upstream call; when another route remains, it is committed only once its first
 * content event arrives within the gateway's firstTokenMs (headers included).
 */
async function streamAttempt(
  deps: InferenceDeps,
  gw: Gateway,
  adapter: UpstreamAdapter,
  headers: Record<string, string>,
  body: string,
  where: AttemptContext,
  signal: AbortSignal,
): Promise<UpstreamCall> {
  const client = deps.config.upstreamStreamClient
  const deadline = gw.policy.firstTokenMs
  if (!where.hasNext || deadline >= gw.timeoutMs) return upstreamStream(gw, adapter.path, headers, body, client, { signal })
  const started = Date.now()
  const call = await upstreamStream(gw, adapter.path, headers, body, client, { timeoutMs: deadline, signal }).catch((e) => {
    // No headers within the first-token deadline is a slow first token, not a hang.
    if (!(e instanceof GatewayError) || e.extra.upstream?.kind !== 'timeout') throw e
    throw new GatewayError(e.code, e.message, { ...e.extra, upstream: { kind: 'first-token' } })
  })
  return awaitFirstContent(call, adapter.streamDecoder(), Math.max(1, deadline - (Date.now() - started)), gw.id)
}

function jsonResponse<B>(
  deps: InferenceDeps,
  inbound: Inbound<B>,
  call: Call,
  ctx: CallContext,
  served: Served & { json: UpstreamJson },
  headers: Record<string, string>,
): Response {
  const { text, parsed, upstreamRequestId } = served.json
  let body: string
  let reported: Usage | undefined
  if (served.native) {
    reported = inbound.usageOf(parsed)
    body = inbound.passthroughJson(text, parsed, ctx)
  } else {
    const answer = served.adapter.parseResponse(parsed)
    reported = answer.usage
    body = inbound.encode(answer, ctx)
  }
  const source = reported ? 'upstream' : 'none'
  const cost = settle(deps, call, {
    status: 200,
    errorCode: null,
    gateway: served.gateway.id,
    usage: reported ?? call.estimate,
    usageSource: source,
  })
  const svc = inbound.svc(cost, source, performance.now() - call.t0, served.gateway.id, upstreamRequestId ?? String(parsed.id ?? ''), ctx)
  call.obs.firstByte()
  call.obs.end(200, null)
  return new Response(appendMemberJson(body, 'svc', svc), {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-model': call.model.id, ...headers },
  })
}

function streamResponse<B>(
  deps: InferenceDeps,
  inbound: Inbound<B>,
  call: Call,
  ctx: CallContext,
  served: Served & { stream: UpstreamCall },
  headers: Record<string, string>,
): Response {
  const gw = served.gateway
  const upstreamRequestId = served.stream.response.headers.get('x-request-id') ?? ''
  deps.inflight.streams++
  const releaseLease = holdLease(deps, call, streamLeaseMs(gw.timeoutMs, deps.config.clientIdleMs))
  const finish = (o: StreamOutcome): string => {
    deps.inflight.streams--
    releaseLease()
    const { usage, source } = billedUsage(call, o)
    const status = o.end === 'completed' ? 200 : o.end === 'failed' ? (o.error?.code === 'SHUTTING_DOWN' ? 503 : 502) : 499
    if (o.unreadable > 0) {
      deps.router.counters.unreadableEvents += o.unreadable
      deps.log.warn('unreadable stream events skipped', { requestId: call.requestId, gateway: gw.id, count: o.unreadable })
    }
    if (o.error) deps.log.warn('stream failed', { requestId: call.requestId, gateway: gw.id, cause: o.error.cause })
    if (o.error) call.obs.streamFailed(gw.id, o.error.code)
    const errorCode = o.error?.code ?? (o.end === 'disconnected' ? 'CLIENT_CLOSED' : o.end === 'client_idle' ? 'CLIENT_IDLE' : null)
    const cost = settle(deps, call, { status, errorCode, gateway: gw.id, usage, usageSource: source })
    call.obs.end(status, errorCode)
    return inbound.svc(
      cost,
      source === 'upstream' ? 'upstream' : 'none',
      performance.now() - call.t0,
      gw.id,
      upstreamRequestId || (o.upstreamId ?? ''),
      ctx,
    )
  }
  const opts = {
    idleTimeoutMs: gw.timeoutMs,
    clientIdleMs: deps.config.clientIdleMs,
    cut: deps.inflight.cut.signal,
    abortUpstream: served.stream.abort,
    finish,
  }
  const upstream = served.stream.response.body!
  const transform = served.native ? inbound.tee(ctx) : translateTransform(served.adapter.streamDecoder(), inbound.streamEncoder(ctx))
  const body = pipeStream(upstream, call.obs.watchFirstFrame(transform), opts)
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } })
}

/**
 * What a stream is billed (SPEC billing 4): the upstream's usage when it reported one; a
 * completed stream without usage pays the reserved estimate; a stream cut short without usage
 * (client gone, upstream failure) pays the prompt estimate plus the output it delivered — never
 * zero, never the whole reservation.
 */
export function billedUsage(call: Call, o: StreamOutcome): { usage: Usage; source: 'upstream' | 'none' | 'estimate' } {
  if (o.usage) return { usage: o.usage, source: 'upstream' }
  if (o.end === 'completed') return { usage: call.estimate, source: 'none' }
  return {
    usage: {
      ...call.estimate,
      outputTokens: Math.min(call.estimate.outputTokens, o.started ? estimateDeliveredTokens(o.deliveredChars) : 0),
    },
    source: 'estimate',
  }
}
