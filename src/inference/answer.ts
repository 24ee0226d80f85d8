// The answer step of a call: the served upstream's answer in the client's protocol, with svc,
// settled once through the billing rule. A JSON answer ends the call and settles before it is
// sent; a stream settles when its call ends (inference/stream.ts), its lease held while it runs.
// `closeCall` is the one way a call closes, admitted or refused before admission: settled, and an
// admitted call's observer told what settlement returned and how the call ended.
import type { Usage } from '../core/usage.ts'
import { withFallbackSvc } from '../protocols/common/fallback-svc.ts'
import { settleQuota } from '../routing/failover.ts'
import { type CallTally, outcomeFor } from '../billing/bill.ts'
import { holdLease, streamLeaseMs } from '../billing/lease.ts'
import { admitted, type RefusedCall, type SettlementDeps, type Settled, settle } from '../billing/settlement.ts'
import type { Config } from '../config.ts'
import type { EndCause } from '../core/call-end.ts'
import { appendMemberJson } from '../lib/json-tokens.ts'
import { SSE_HEADERS } from '../lib/sse/encode.ts'
import type { CallContext, Spoke } from '../protocols/spoke.ts'
import type { Router } from '../routing/router.ts'
import type { Store } from '../store/types.ts'
import type { Call } from './admission.ts'
import type { InFlight } from './inflight.ts'
import type { ServedJson, ServedStream } from './upstream-call.ts'
import { pipeStream, type StreamTally } from './stream.ts'
import { teeTransform, translateTransform } from './stream-translate.ts'

export interface AnswerDeps extends SettlementDeps {
  store: SettlementDeps['store'] & Pick<Store, 'renewLease'>
  inflight: InFlight
  router: Pick<Router, 'counters' | 'breakers' | 'limits' | 'log' | 'load'>
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

const COMPLETED: EndCause = { kind: 'completed' }

/**
 * Settles a call as it ended — admitted, or refused before admission (billing/settlement.ts) — and
 * tells an admitted call's observer what was settled and how it ended; a refused call's observer
 * is told by the pipeline what it answered.
 */
export function closeCall(
  deps: SettlementDeps,
  call: Call | RefusedCall,
  end: EndCause,
  tally: CallTally,
  gateway: string | null,
): Settled | undefined {
  const outcome = outcomeFor(call.estimate, end, tally, gateway)
  const settled = settle(deps, call, outcome)
  if (!admitted(call)) return settled
  if (settled) call.obs.settled(settled)
  call.obs.end(outcome.status, outcome.errorCode, outcome.fault)
  return settled
}

/** The svc facts of a settled call (a second settlement settles nothing: cost 0). */
const settledFacts = (s: Settled | undefined) => ({ costMicros: s?.costMicros ?? 0n, usageSource: svcSource(s) })
const svcSource = (s: Settled | undefined): 'upstream' | 'none' => (s?.usageSource === 'upstream' ? 'upstream' : 'none')

export function jsonAnswer<B>(deps: AnswerDeps, a: Answering<B>, served: ServedJson): Response {
  const { spoke, call, ctx } = a
  const { text, parsed, upstreamRequestId } = served.json
  const answer = served.native ? spoke.passthrough(text, parsed, ctx) : translated(spoke, served, parsed, ctx)
  const gateway = served.gateway.id
  // The client may have gone while the answer was read: the upstream's count still stands.
  const end: EndCause = call.life.end(COMPLETED) ? COMPLETED : call.life.ended!
  const reported = answer.usage && { usage: answer.usage, final: true }
  call.obs.firstByte()
  const settled = closeCall(deps, call, end, { reported, started: false, deliveredChars: 0 }, gateway)
  if (reported) settleQuota(deps.router, served.quota, usedTokens(reported.usage))
  const svc = withFallbackSvc(
    spoke.svc({
      ...settledFacts(settled),
      latencyMs: performance.now() - call.t0,
      gateway,
      upstreamRequestId: upstreamRequestId ?? String(parsed.id ?? ''),
      ctx,
    }),
    ctx,
  )
  const headers = a.headers
  headers['content-type'] = 'application/json'
  headers['x-model'] = call.model.id
  return new Response(appendMemberJson(answer.body, 'svc', svc), { status: 200, headers })
}

/** A translated JSON answer in the client's protocol, and the usage the upstream reported. */
function translated<B>(spoke: Spoke<B>, served: ServedJson, parsed: Record<string, unknown>, ctx: CallContext) {
  const answer = served.adapter.parseResponse(parsed)
  return { body: spoke.encode(answer, ctx), usage: answer.usage }
}

export function streamAnswer<B>(deps: AnswerDeps, a: Answering<B>, served: ServedStream): Response {
  const { spoke, call, ctx } = a
  const gw = served.gateway
  const upstreamRequestId = served.stream.response.headers.get('x-request-id') ?? ''
  deps.inflight.streams++
  const releaseLease = holdLease(deps, call, streamLeaseMs(gw.timeoutMs, deps.config.clientIdleMs))
  const finish = (end: EndCause, tally: StreamTally): string => {
    deps.inflight.streams--
    deps.router.load.ended(served.route)
    releaseLease()
    if (tally.unreadable > 0) {
      deps.router.counters.unreadableEvents += tally.unreadable
      deps.log.warn('unreadable stream events skipped', { requestId: call.requestId, gateway: gw.id, count: tally.unreadable })
    }
    if (end.kind === 'upstream_failed') {
      deps.log.warn('stream failed', { requestId: call.requestId, gateway: gw.id, cause: end.error.cause })
      call.obs.streamFailed(gw.id, end.error.code)
      deps.router.breakers.record(served.route, end.error)
    }
    const settled = closeCall(deps, call, end, tally, gw.id)
    if (tally.reported?.final) settleQuota(deps.router, served.quota, usedTokens(tally.reported.usage))
    return withFallbackSvc(
      spoke.svc({
        ...settledFacts(settled),
        latencyMs: performance.now() - call.t0,
        gateway: gw.id,
        upstreamRequestId: upstreamRequestId || (tally.upstreamId ?? ''),
        ctx,
      }),
      ctx,
    )
  }
  const opts = {
    life: call.life,
    idleTimeoutMs: gw.timeoutMs,
    clientIdleMs: deps.config.clientIdleMs,
    finish,
    events: served.adapter.events?.(),
  }
  const decoder = served.adapter.streamDecoder()
  const transform = served.native ? teeTransform(decoder, spoke.tee(ctx)) : translateTransform(decoder, spoke.streamEncoder(ctx))
  const body = pipeStream(served.stream.body, call.obs.watchFirstFrame(transform), opts)
  return new Response(body, { status: 200, headers: Object.assign(a.headers, SSE_HEADERS) })
}

/** The tokens an upstream counts against a per-minute quota: the whole prompt and the output. */
const usedTokens = (u: Usage): number => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens
