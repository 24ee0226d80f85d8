// POST /v1/messages/count_tokens (Anthropic; Claude Code calls it before requests). Free and
// not rate-limited by the key's window. When the model has an Anthropic route, that upstream
// counts with its own tokenizer (its routes in order, first answer wins); otherwise, or when
// they all fail, the gateway answers its conservative estimate (~4 characters per token, inline
// media by size class).
import { clientRetryHeaders, GatewayError } from '../core/errors.ts'
import type { Route } from '../core/gateway.ts'
import { readJsonBody } from '../http/body.ts'
import { newRequestId } from '../lib/ids.ts'
import { compile } from '../lib/validate.ts'
import { messagesPromptChars } from '../protocols/messages/decode.ts'
import { messagesErrorBody } from '../protocols/messages/error.ts'
import { CountTokensRequest } from '../protocols/messages/schema.ts'
import { anthropicAdapter } from '../providers/anthropic-messages/adapter.ts'
import { upstreamJson } from '../providers/http.ts'
import { authenticate, resolveModel } from './call.ts'
import type { InferenceDeps } from './deps.ts'

const validate = compile(CountTokensRequest)
const FORWARDED = ['anthropic-version', 'anthropic-beta'] as const

async function upstreamCount(deps: InferenceDeps, routes: Route[], raw: Record<string, unknown>, req: Request, requestId: string): Promise<number | undefined> {
  const pass = Object.fromEntries(FORWARDED.flatMap((h) => (req.headers.get(h) ? [[h, req.headers.get(h)!]] : [])))
  for (const route of routes.filter((r) => r.gateway.protocol === 'anthropic-messages')) {
    try {
      const body = anthropicAdapter.passthroughBody(raw, route.upstreamModel, false)
      const answer = await upstreamJson(route.gateway, '/messages/count_tokens', anthropicAdapter.headers(route.gateway.apiKey, pass), body)
      const n = answer.parsed.input_tokens
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n
    } catch (e) {
      deps.log.warn('count_tokens upstream failed', { requestId, gateway: route.gateway.id, cause: e instanceof GatewayError ? e.cause : String(e) })
    }
  }
  return undefined
}

export async function countTokens(deps: InferenceDeps, req: Request): Promise<Response> {
  const requestId = newRequestId('req')
  try {
    await authenticate(deps, req.headers)
    const raw = await readJsonBody(req, deps.config.maxBodyBytes)
    const checked = validate(raw)
    if (!checked.ok) throw new GatewayError('VALIDATION_FAILED', `${checked.issues[0]!.path}: ${checked.issues[0]!.message}`, { issues: checked.issues, param: checked.issues[0]!.path })
    const model = resolveModel(deps, checked.value.model)
    const counted = await upstreamCount(deps, model.routes, raw as Record<string, unknown>, req, requestId)
    const tokens = counted ?? Math.max(1, Math.ceil(messagesPromptChars(checked.value) / 4))
    return Response.json({ input_tokens: tokens }, { headers: { 'x-request-id': requestId } })
  } catch (e) {
    const err = e instanceof GatewayError ? e : new GatewayError('INTERNAL', 'Internal error.', { cause: e })
    const { status, body } = messagesErrorBody(err)
    return new Response(body, { status, headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...clientRetryHeaders(err), ...err.extra.headers } })
  }
}
