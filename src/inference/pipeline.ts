// One pipeline for every inbound protocol (the only place that joins protocols × providers ×
// billing × limits): auth → body → parse → model → admit → the upstream call with failover (upstream-call.ts) →
// answer and settle (answer.ts). A failure at any step is settled as far as the call got (a
// call refused before admission billed nothing), and answered in the protocol's envelope (error-response.ts).
import type { ApiKeyAuth } from '../auth/api-keys.ts'
import { NOTHING_DELIVERED, ZERO_USAGE } from '../billing/bill.ts'
import type { RefusedCall } from '../billing/settlement.ts'
import type { Catalog } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import { answerError, endOfThrown, faultOf } from '../core/call-end.ts'
import { readJsonBody } from '../http/body.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { newRequestId } from '../lib/ids.ts'
import { CallObserver } from '../observability/call-observer.ts'
import type { Metrics } from '../observability/telemetry.ts'
import type { Tracer } from '../observability/tracing.ts'
import type { CallContext, Spoke } from '../protocols/spoke.ts'
import { type AdmitDeps, admit, authenticate, type Call } from './admission.ts'
import { type AnswerDeps, closeCall, jsonAnswer, streamAnswer } from './answer.ts'
import { CallLife } from './call-life.ts'
import { errorResponse } from './error-response.ts'
import { planCall } from './call-plan.ts'
import { candidates, takeModels } from './candidates.ts'
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
  let refused: RefusedCall | undefined
  const life = new CallLife(req.signal, deps.inflight.cut)
  try {
    const principal = await authenticate(deps.auth, req.headers)
    checkClientIp(principal, socket.clientIp)
    refused = { requestId, principal, model: { id: '' }, protocol: spoke.name, stream: false, estimate: ZERO_USAGE, t0, at, settled: false }
    const taken = takeModels(await readJsonBody(req, deps.config.maxBodyBytes))
    const raw = taken.raw as Record<string, unknown>
    if (raw && typeof raw === 'object' && typeof raw.model === 'string') refused.model.id = raw.model
    const body = spoke.parse(raw)
    const stream = spoke.stream(body)
    refused.stream = stream
    checkModel(principal, spoke.model(body))
    const est = spoke.estimateInput(body)
    const chain = candidates(deps.catalog, {
      model: spoke.model(body),
      models: taken.models,
      kind: spoke.kind,
      fitChars: est.fitChars ?? est.promptChars,
      allows: (id) => principal.allowsModel(id),
    })
    obs.resolved(chain[0]!.id, chain[0]!.provider, stream)
    const plan = planCall(chain, est, deps.config.defaultMaxOutputTokens)
    const { model, estimate, reserveMicros } = plan.admitted
    const tried = chain.length > 1 ? { chain: chain.map((m) => m.id) } : {}
    call = await obs.admission(
      admit(deps, { requestId, protocol: spoke.name, stream, principal, model, estimate, reserveMicros, t0, at, obs, life, ...tried }),
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
    // As the call's lifecycle says, else as the error thrown says (core/call-end.ts).
    if (!life.ended) life.end(endOfThrown(e))
    const end = life.ended!
    const err = answerError(end, e)
    // Settled as it ended, admitted or refused before admission (billed nothing then).
    const closing = call ?? refused
    if (closing) closeCall(deps, closing, end, NOTHING_DELIVERED, null)
    const res = errorResponse(spoke.errorBody, err, requestId, deps.log, `${spoke.name} request`, spoke.idHeaders)
    obs.end(res.status, err.code, faultOf(end))
    return res
  }
}
