// POST /v1/chat/completions: the only place that joins the chat protocol, the OpenAI-chat
// upstream, billing and limits. Order: auth → body → validate → model → admit → route → settle.
import { GatewayError } from '../core/errors.ts'
import type { Gateway, Route } from '../core/gateway.ts'
import { fromOpenAiChatUsage, type Usage } from '../core/usage.ts'
import { estimateDeliveredTokens, estimateUsage } from '../billing/estimate.ts'
import { readJsonBody } from '../http/body.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { newRequestId } from '../lib/ids.ts'
import { SSE_HEADERS } from '../lib/sse/encode.ts'
import { compile } from '../lib/validate.ts'
import { chatErrorBody } from '../protocols/chat/error.ts'
import { chatPassthrough, type ChatStreamOutcome } from '../protocols/chat/passthrough-stream.ts'
import { publicJson } from '../protocols/chat/public-identity.ts'
import { ChatRequest, promptChars, requestedMaxTokens } from '../protocols/chat/schema.ts'
import { appendMember, encodeChatSvc } from '../protocols/chat/svc.ts'
import { upstreamFetch, upstreamJson, type UpstreamCall, type UpstreamJson } from '../providers/http.ts'
import { OPENAI_CHAT_PATH, openAiChatBody, openAiHeaders } from '../providers/openai-chat/request.ts'
import { withFailover } from '../routing/failover.ts'
import { admit, authenticate, logRejected, resolveModel, settle, settleFailure, type Call } from './call.ts'
import type { InferenceDeps } from './deps.ts'

const validateChat = compile(ChatRequest)

/** `onStream` lets the server lift its idle timeout for a long-lived event stream. */
export async function chatCompletions(deps: InferenceDeps, req: Request, onStream?: () => void): Promise<Response> {
  const t0 = performance.now()
  const at = Date.now()
  const requestId = newRequestId('req')
  let call: Call | undefined
  let rejectLog: Parameters<typeof logRejected>[1] | undefined
  try {
    const principal = await authenticate(deps, req.headers)
    rejectLog = { requestId, principal, model: '', protocol: 'chat', stream: false, t0, at }
    const raw = await readJsonBody(req, deps.config.maxBodyBytes)
    if (raw && typeof raw === 'object' && typeof (raw as any).model === 'string') rejectLog.model = (raw as any).model
    const checked = validateChat(raw)
    if (!checked.ok) {
      const first = checked.issues[0]!
      throw new GatewayError('VALIDATION_FAILED', `${first.path}: ${first.message}`, { issues: checked.issues, param: first.path })
    }
    const body = checked.value
    const stream = body.stream === true
    rejectLog.stream = stream
    const model = resolveModel(deps, body.model)
    const estimate = estimateUsage(promptChars(body), {
      requested: requestedMaxTokens(body),
      choices: body.n ?? 1,
      defaultCap: deps.config.defaultMaxOutputTokens,
      contextWindow: model.contextWindow,
    })
    call = await admit(deps, { requestId, protocol: 'chat', stream, principal, model, estimate, t0, at })
    const admitted = call
    const headers = { 'x-request-id': requestId, ...rateHeaders(call.rate) }
    const upstreamBody = (route: Route) => openAiChatBody(raw as Record<string, unknown>, route.upstreamModel, stream)
    const onFailure = (route: Route, err: GatewayError) => deps.log.warn('upstream attempt failed', { requestId, gateway: route.gateway.id, code: err.code, cause: err.cause })
    if (stream) {
      const served = await withFailover(model.routes, (r) => upstreamFetch(r.gateway, OPENAI_CHAT_PATH, openAiHeaders(r.gateway.apiKey), upstreamBody(r)), onFailure)
      onStream?.()
      return streamResponse(deps, admitted, served.value, served.route.gateway, headers)
    }
    const served = await withFailover(model.routes, (r) => upstreamJson(r.gateway, OPENAI_CHAT_PATH, openAiHeaders(r.gateway.apiKey), upstreamBody(r)), onFailure)
    return jsonResponse(deps, admitted, served.value, served.route.gateway.id, headers)
  } catch (e) {
    const err = e instanceof GatewayError ? e : new GatewayError('INTERNAL', 'Internal error.', { cause: e })
    if (err.code === 'INTERNAL') deps.log.error('chat request failed', { requestId, err: String(err.cause ?? err) })
    if (call) settleFailure(deps, call, err, null)
    else if (rejectLog) logRejected(deps, rejectLog, err)
    const { status, body } = chatErrorBody(err)
    return new Response(body, { status, headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...err.extra.headers } })
  }
}

function jsonResponse(deps: InferenceDeps, call: Call, up: UpstreamJson, gateway: string, headers: Record<string, string>): Response {
  const { text, parsed } = up
  const reported = fromOpenAiChatUsage(parsed.usage)
  const usage: Usage = reported ?? call.estimate
  const cost = settle(deps, call, { status: 200, errorCode: null, gateway, usage, usageSource: reported ? 'upstream' : 'none' })
  const svc = encodeChatSvc({
    costMicros: cost,
    latencyMs: performance.now() - call.t0,
    gateway,
    upstreamRequestId: up.upstreamRequestId ?? (typeof parsed.id === 'string' ? parsed.id : ''),
    usageSource: reported ? 'upstream' : 'none',
  })
  const body = appendMember(publicJson(text, parsed, call.model.id), 'svc', svc)
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'x-model': call.model.id, ...headers } })
}

function streamResponse(deps: InferenceDeps, call: Call, up: UpstreamCall, gw: Gateway, headers: Record<string, string>): Response {
  const gateway = gw.id
  const upstreamRequestId = up.response.headers.get('x-request-id') ?? ''
  deps.inflight.streams++
  const finish = (o: ChatStreamOutcome): string => {
    deps.inflight.streams--
    const { usage, source } = billedUsage(call, o)
    const status = o.end === 'completed' ? 200 : o.end === 'disconnected' ? 499 : 502
    if (o.error) deps.log.warn('stream failed', { requestId: call.requestId, gateway, cause: o.error.cause })
    const cost = settle(deps, call, { status, errorCode: o.error?.code ?? (o.end === 'disconnected' ? 'CLIENT_CLOSED' : null), gateway, usage, usageSource: source })
    return encodeChatSvc({ costMicros: cost, latencyMs: performance.now() - call.t0, gateway, upstreamRequestId: upstreamRequestId || o.upstreamId, usageSource: source === 'upstream' ? 'upstream' : 'none' })
  }
  const body = chatPassthrough(up.response.body!, { slug: call.model.id, idleTimeoutMs: gw.timeoutMs, abortUpstream: up.abort, finish })
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, 'x-model': call.model.id, ...headers } })
}

/**
 * What a stream is billed (SPEC "Chat-completions stream", billing 4): the upstream's usage when
 * it reported one; a completed stream without usage pays the reserved estimate; a stream cut
 * short without usage (client gone, upstream failure) pays the prompt estimate plus the tokens
 * it actually delivered — never zero, never the whole reservation.
 */
export function billedUsage(call: Call, o: ChatStreamOutcome): { usage: Usage; source: 'upstream' | 'none' | 'estimate' } {
  if (o.usage) return { usage: o.usage, source: 'upstream' }
  if (o.end === 'completed') return { usage: call.estimate, source: 'none' }
  return {
    usage: { ...call.estimate, outputTokens: Math.min(call.estimate.outputTokens, o.started ? estimateDeliveredTokens(o.deliveredChars) : 0) },
    source: 'estimate',
  }
}
