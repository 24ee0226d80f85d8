// One pipeline for every inbound protocol (the only place that joins protocols × providers ×
// billing × limits): auth → body → parse → model → admit → the upstream call with failover (upstream-call.ts) →
// answer and settle (answer.ts). A failure at any step is settled or logged as far as the call
// got, and answered in the protocol's envelope (error-response.ts).
import type { ApiKeyAuth } from '../auth/api-keys.ts'
import { NOTHING_DELIVERED } from '../billing/bill.ts'
import { logRejected, type RejectedCall, settleEnd } from '../billing/settlement.ts'
import type { Catalog } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import { CallEnded, type EndCause, faultOf } from '../core/call-end.ts'
import { GatewayError } from '../core/errors.ts'
import { readJsonBody } from '../http/body.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { newRequestId } from '../lib/ids.ts'
import { CallObserver } from '../observability/call-observer.ts'
import type { Metrics } from '../observability/telemetry.ts'
import type { Tracer } from '../observability/tracing.ts'
import type { CallContext, Spoke } from '../protocols/spoke.ts'
import { type AdmitDeps, admit, authenticate, type Call } from './admission.ts'
import { type AnswerDeps, jsonAnswer, streamAnswer } from './answer.ts'
import { CallLife } from './call-life.ts'
import { asGatewayError, errorResponse } from './error-response.ts'
import { planCall } from './call-plan.ts'
import { candidates, fitting, takeModels } from './candidates.ts'
import { serveChain } from './serve-chain.ts'
import type { UpstreamCallDeps } from './upstream-call.ts'
import { checkClientIp, checkModel } from './key-access.ts'

export type PipelineDeps = AdmitDeps &
  AnswerDeps &
  UpstreamCallDeps & {
    auth: Pick<ApiKeyAuth, 'verify'>
    catalog: Pick<Catalog, 'lookup'>
    metrics: Metrics
    tracer: Tracer
    config: Pick<Config, 'maxBodyBytes' | 'defaultMaxOutputTokens'>
  }

/** How the server sees the call: `onStream` lifts its idle timeout for a long-lived stream; `clientIp` resolves the caller's address. */
export interface CallSocket {
  onStream?: () => void
  clientIp: () => string | undefined
}

/** One /v1 call of `spoke`'s protocol. */
export async function protocolCall<Body>(
  deps: PipelineDeps,
  spoke: Spoke<Body>,
  req: Request,
  socket: CallSocket = { clientIp: () => undefined },
): Promise<Response> {
  const t0 = performance.now()
  const at = Date.now()
  const requestId = newRequestId(spoke.idPrefix)
  const obs = new CallObserver(deps.metrics, deps.tracer, deps.log, spoke.name, req.headers, requestId, t0)
  let call: Call | undefined
  let rejected: RejectedCall | undefined
  const life = new CallLife(req.signal, deps.inflight.cut)
  try {
    const principal = await authenticate(deps.auth, req.headers)
    checkClientIp(principal, socket.clientIp)
    rejected = { requestId, principal, model: '', protocol: spoke.name, stream: false, t0, at }
    const taken = takeModels(await readJsonBody(req, deps.config.maxBodyBytes))
    const raw = taken.raw as Record<string, unknown>
    if (raw && typeof raw === 'object' && typeof raw.model === 'string') rejected.model = raw.model
    const body = spoke.parse(raw)
    const stream = spoke.stream(body)
    rejected.stream = stream
    checkModel(principal, spoke.model(body))
    const est = spoke.estimateInput(body)
    // A key limited to some models is served only by those, fallbacks included (docs/api.md "Key settings").
    const allowed = candidates(deps.catalog, spoke.model(body), taken.models, spoke.kind, principal.allowsModel)
    const chain = fitting(allowed, est.fitChars ?? est.promptChars)
    obs.resolved(chain[0]!.id, chain[0]!.provider, stream)
    const plan = planCall(chain, est, deps.config.defaultMaxOutputTokens)
    const { model, estimate } = plan.admitted
    const tried = chain.length > 1 ? { chain: chain.map((m) => m.id) } : {}
    call = await obs.admission(
      admit(deps, { requestId, protocol: spoke.name, stream, principal, model, estimate, t0, at, obs, life, ...tried }),
    )
    const passHeaders = spoke.passHeaders(req.headers)
    const answered = await serveChain(
      deps,
      { spoke, raw, body, stream, requestId, passHeaders, life, obs, keyId: principal.keyId },
      plan.chain,
    )
    // Billed at the price of the model that answered (docs/failover.md "Model fallbacks").
    call.model = answered.model
    call.estimate = plan.chain.find((c) => c.model === answered.model)!.estimate
    const served = answered.served
    const ctx: CallContext = {
      requestId,
      publicId: requestId,
      slug: answered.model.id,
      created: Math.floor(at / 1000),
      serviceMode: principal.serviceMode,
    }
    if (answered.model !== chain[0]) ctx.requestedModel = chain[0]!.id
    const headers = rateHeaders(call.rate, false, call.tokenRate)
    for (const h of spoke.idHeaders) headers[h] = requestId
    const answering = { spoke, call, ctx, headers }
    if ('stream' in served) {
      socket.onStream?.()
      return streamAnswer(deps, answering, served)
    }
    return jsonAnswer(deps, answering, served)
  } catch (e) {
    const end = endOf(life, e)
    const err = answerFor(end, e)
    if (call) settleEnd(deps, call, end, NOTHING_DELIVERED, null)
    else if (rejected) logRejected(deps, rejected, err)
    const res = errorResponse(spoke.errorBody, err, requestId, deps.log, `${spoke.name} request`, spoke.idHeaders)
    obs.end(res.status, err.code, faultOf(end))
    return res
  }
}

const UPSTREAM_FAILURES = new Set(['UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT', 'UPSTREAM_UNAVAILABLE'])

/** How a call that threw ended: as its lifecycle says, else failed upstream (before any byte) or refused. */
function endOf(life: CallLife, e: unknown): EndCause {
  if (life.ended) return life.ended
  const error = asGatewayError(e)
  const end: EndCause = UPSTREAM_FAILURES.has(error.code)
    ? { kind: 'upstream_failed', error, afterFirstByte: false }
    : { kind: 'refused', error }
  life.end(end)
  return end
}

/** The error answered: the thrown one, or, when the call's own end cut its work, that end's. */
function answerFor(end: EndCause, e: unknown): GatewayError {
  if (!(e instanceof CallEnded)) return asGatewayError(e)
  if (end.kind === 'drain')
    return new GatewayError('SHUTTING_DOWN', 'This instance is shutting down; retry the request.', { headers: { 'retry-after': '1' } })
  return new GatewayError('CLIENT_CLOSED', 'The client closed the request.')
}
