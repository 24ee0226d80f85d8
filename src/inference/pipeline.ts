// One pipeline for every inbound protocol (the only place that joins protocols × providers ×
// billing × limits): auth → body → parse → model → admit → serve with failover (serve.ts) →
// answer and settle (answer.ts). A failure at any step is settled or logged as far as the call
// got, and answered in the protocol's envelope (error-response.ts).
import type { ApiKeyAuth } from '../auth/api-keys.ts'
import { estimateUsage } from '../billing/estimate.ts'
import { logRejected, type RejectedCall, settle, settleFailure } from '../billing/settlement.ts'
import type { Catalog } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import { contextLengthError, promptCannotFit } from '../core/context-window.ts'
import { GatewayError } from '../core/errors.ts'
import { readJsonBody } from '../http/body.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { newRequestId } from '../lib/ids.ts'
import { CallObserver } from '../observability/call-observer.ts'
import type { Metrics } from '../observability/telemetry.ts'
import type { Tracer } from '../observability/tracing.ts'
import type { CallContext, Spoke } from '../protocols/spoke.ts'
import { type AdmitDeps, admit, authenticate, type Call, resolveModel } from './admission.ts'
import { type AnswerDeps, jsonAnswer, streamAnswer } from './answer.ts'
import { callAbort } from './call-abort.ts'
import { asGatewayError, errorResponse } from './error-response.ts'
import { abandonedUsage } from './lease.ts'
import { type ServeDeps, serve } from './serve.ts'

export type PipelineDeps = AdmitDeps &
  AnswerDeps &
  ServeDeps & {
    auth: Pick<ApiKeyAuth, 'verify'>
    catalog: Pick<Catalog, 'lookup'>
    metrics: Metrics
    tracer: Tracer
    config: Pick<Config, 'maxBodyBytes' | 'defaultMaxOutputTokens'>
  }

/** One /v1 call of `spoke`'s protocol. `onStream` lets the server lift its idle timeout for a long-lived stream. */
export async function protocolCall<Body>(deps: PipelineDeps, spoke: Spoke<Body>, req: Request, onStream?: () => void): Promise<Response> {
  const t0 = performance.now()
  const at = Date.now()
  const requestId = newRequestId(spoke.idPrefix)
  const obs = new CallObserver(deps.metrics, deps.tracer, deps.log, spoke.name, req.headers, requestId, t0)
  let call: Call | undefined
  let rejected: RejectedCall | undefined
  const abort = callAbort(req.signal, deps.inflight.cutWatch)
  try {
    const principal = await authenticate(deps.auth, req.headers)
    rejected = { requestId, principal, model: '', protocol: spoke.name, stream: false, t0, at }
    const raw = (await readJsonBody(req, deps.config.maxBodyBytes)) as Record<string, unknown>
    if (raw && typeof raw === 'object' && typeof raw.model === 'string') rejected.model = raw.model
    const body = spoke.parse(raw)
    const stream = spoke.stream(body)
    rejected.stream = stream
    const model = resolveModel(deps.catalog, spoke.model(body))
    obs.resolved(model.id, model.provider, stream)
    const est = spoke.estimateInput(body)
    if (promptCannotFit(est.promptChars, model.contextWindow)) throw contextLengthError(model.contextWindow)
    const estimate = estimateUsage(est.promptChars, {
      requested: est.maxTokens,
      choices: est.choices,
      defaultCap: deps.config.defaultMaxOutputTokens,
      contextWindow: model.contextWindow,
    })
    call = await obs.admission(admit(deps, { requestId, protocol: spoke.name, stream, principal, model, estimate, t0, at, obs }))
    const passHeaders = spoke.passHeaders(req.headers)
    const served = await serve(deps, { spoke, raw, body, stream, model, requestId, passHeaders, abort, obs })
    abort.release()
    const ctx: CallContext = {
      requestId,
      publicId: requestId,
      slug: model.id,
      created: Math.floor(at / 1000),
      serviceMode: principal.serviceMode,
    }
    const headers = rateHeaders(call.rate)
    headers['x-request-id'] = requestId
    const answering = { spoke, call, ctx, headers }
    if ('stream' in served) {
      onStream?.()
      return streamAnswer(deps, answering, served)
    }
    return jsonAnswer(deps, answering, served)
  } catch (e) {
    abort.release()
    const cut = call && abort.cause()
    const err =
      cut === 'shutdown'
        ? new GatewayError('SHUTTING_DOWN', 'This instance is shutting down; retry the request.', { headers: { 'retry-after': '1' } })
        : asGatewayError(e)
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
    else if (rejected) logRejected(deps, rejected, err)
    const res = errorResponse(spoke.errorBody, err, requestId, deps.log, `${spoke.name} request`)
    obs.end(res.status, err.code)
    return res
  }
}
