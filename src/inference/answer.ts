// The answer step of a call: the served upstream's answer in the client's protocol, with svc,
// settled once. A JSON answer settles before it is sent; a stream settles when it ends
// (inference/stream.ts reports how), its lease held while it runs.
import { billedUsage } from '../billing/billed-usage.ts'
import { type SettlementDeps, settle } from '../billing/settlement.ts'
import type { Config } from '../config.ts'
import type { Usage } from '../core/usage.ts'
import { appendMemberJson } from '../lib/json-tokens.ts'
import { SSE_HEADERS } from '../lib/sse/encode.ts'
import type { CallContext, Spoke } from '../protocols/spoke.ts'
import type { Router } from '../routing/router.ts'
import type { Store } from '../store/types.ts'
import type { Call } from './admission.ts'
import type { InFlight } from './inflight.ts'
import { holdLease, streamLeaseMs } from './lease.ts'
import type { ServedJson, ServedStream } from './serve.ts'
import { pipeStream, type StreamOutcome } from './stream.ts'
import { translateTransform } from './stream-translate.ts'

export interface AnswerDeps extends SettlementDeps {
  store: SettlementDeps['store'] & Pick<Store, 'renewLease'>
  inflight: InFlight
  router: Pick<Router, 'counters'>
  now: () => number
  config: Pick<Config, 'clientIdleMs'>
}

/** What every answer of one call shares. */
export interface Answering<Body> {
  spoke: Spoke<Body>
  call: Call
  ctx: CallContext
  /** x-request-id and the rate headers: this call's own object, which the answer completes and hands to its Response. */
  headers: Record<string, string>
}

export function jsonAnswer<B>(deps: AnswerDeps, a: Answering<B>, served: ServedJson): Response {
  const { spoke, call, ctx } = a
  const { text, parsed, upstreamRequestId } = served.json
  let body: string
  let reported: Usage | undefined
  if (served.native) {
    const passed = spoke.passthrough(text, parsed, ctx)
    body = passed.body
    reported = passed.usage
  } else {
    const answer = served.adapter.parseResponse(parsed)
    reported = answer.usage
    body = spoke.encode(answer, ctx)
  }
  const usageSource = reported ? 'upstream' : 'none'
  const gateway = served.gateway.id
  const costMicros = settle(deps, call, { status: 200, errorCode: null, gateway, usage: reported ?? call.estimate, usageSource })
  const svc = spoke.svc({
    costMicros,
    usageSource,
    latencyMs: performance.now() - call.t0,
    gateway,
    upstreamRequestId: upstreamRequestId ?? String(parsed.id ?? ''),
    ctx,
  })
  call.obs.firstByte()
  call.obs.end(200, null)
  const headers = a.headers
  headers['content-type'] = 'application/json'
  headers['x-model'] = call.model.id
  return new Response(appendMemberJson(body, 'svc', svc), { status: 200, headers })
}

export function streamAnswer<B>(deps: AnswerDeps, a: Answering<B>, served: ServedStream): Response {
  const { spoke, call, ctx } = a
  const gw = served.gateway
  const upstreamRequestId = served.stream.response.headers.get('x-request-id') ?? ''
  deps.inflight.streams++
  const releaseLease = holdLease(deps, call, streamLeaseMs(gw.timeoutMs, deps.config.clientIdleMs))
  const finish = (o: StreamOutcome): string => {
    deps.inflight.streams--
    releaseLease()
    const { usage, source } = billedUsage(call.estimate, o)
    const status = o.end === 'completed' ? 200 : o.end === 'failed' ? (o.error?.code === 'SHUTTING_DOWN' ? 503 : 502) : 499
    if (o.unreadable > 0) {
      deps.router.counters.unreadableEvents += o.unreadable
      deps.log.warn('unreadable stream events skipped', { requestId: call.requestId, gateway: gw.id, count: o.unreadable })
    }
    if (o.error) deps.log.warn('stream failed', { requestId: call.requestId, gateway: gw.id, cause: o.error.cause })
    if (o.error) call.obs.streamFailed(gw.id, o.error.code)
    const errorCode = o.error?.code ?? (o.end === 'disconnected' ? 'CLIENT_CLOSED' : o.end === 'client_idle' ? 'CLIENT_IDLE' : null)
    const costMicros = settle(deps, call, { status, errorCode, gateway: gw.id, usage, usageSource: source })
    call.obs.end(status, errorCode)
    return spoke.svc({
      costMicros,
      usageSource: source === 'upstream' ? 'upstream' : 'none',
      latencyMs: performance.now() - call.t0,
      gateway: gw.id,
      upstreamRequestId: upstreamRequestId || (o.upstreamId ?? ''),
      ctx,
    })
  }
  const opts = {
    idleTimeoutMs: gw.timeoutMs,
    clientIdleMs: deps.config.clientIdleMs,
    cut: deps.inflight.cutWatch,
    abortUpstream: served.stream.abort,
    finish,
  }
  const transform = served.native ? spoke.tee(ctx) : translateTransform(served.adapter.streamDecoder(), spoke.streamEncoder(ctx))
  const body = pipeStream(served.stream.body, call.obs.watchFirstFrame(transform), opts)
  return new Response(body, { status: 200, headers: Object.assign(a.headers, SSE_HEADERS) })
}
