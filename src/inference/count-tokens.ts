// POST /v1/messages/count_tokens (Anthropic; Claude Code calls it before requests). Free, but
// bounded (docs/security.md "count_tokens"): each call counts in a window of its own per key,
// as many per minute as the key's rpm, so a key cannot spend the operator's upstream quota
// without limit; identical requests are answered from a cache without asking upstream again.
// When the model has an Anthropic route, that upstream counts with its own tokenizer (its
// routes in order, first answer wins); otherwise, or when they all fail, the gateway answers
// its conservative estimate (~4 characters per token, inline media by size class).
import { clientRetryHeaders, GatewayError } from '../core/errors.ts'
import type { Route } from '../core/gateway.ts'
import { parseJsonText, readBodyText } from '../http/body.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { newRequestId, sha256Hex } from '../lib/ids.ts'
import { TtlLru } from '../lib/lru.ts'
import { compile } from '../lib/validate.ts'
import { messagesPromptChars } from '../protocols/messages/decode.ts'
import { messagesErrorBody } from '../protocols/messages/error.ts'
import { CountTokensRequest } from '../protocols/messages/schema.ts'
import { anthropicAdapter } from '../providers/anthropic-messages/adapter.ts'
import { upstreamJson } from '../providers/transport/http.ts'
import { authenticate, resolveModel } from './call.ts'
import type { InferenceDeps } from './deps.ts'

const validate = compile(CountTokensRequest)
const FORWARDED = ['anthropic-version', 'anthropic-beta'] as const
const WINDOW_MS = 60_000
const CACHE_TTL_MS = 10 * 60_000

/** Counts by request, per process (one cache per deps). */
const caches = new WeakMap<InferenceDeps, TtlLru<string, number>>()
const cacheOf = (deps: InferenceDeps) => caches.get(deps) ?? (caches.set(deps, new TtlLru(10_000)), caches.get(deps)!)

async function upstreamCount(
  deps: InferenceDeps,
  routes: Route[],
  raw: Record<string, unknown>,
  req: Request,
  requestId: string,
): Promise<number | undefined> {
  const pass = Object.fromEntries(FORWARDED.flatMap((h) => (req.headers.get(h) ? [[h, req.headers.get(h)!]] : [])))
  for (const route of routes.filter((r) => r.gateway.protocol === 'anthropic-messages')) {
    try {
      const body = anthropicAdapter.passthroughBody(raw, route.upstreamModel, false)
      const answer = await upstreamJson(route.gateway, '/messages/count_tokens', anthropicAdapter.headers(route.gateway.apiKey, pass), body)
      const n = answer.parsed.input_tokens
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n
    } catch (e) {
      deps.log.warn('count_tokens upstream failed', {
        requestId,
        gateway: route.gateway.id,
        cause: e instanceof GatewayError ? e.cause : String(e),
      })
    }
  }
  return undefined
}

export async function countTokens(deps: InferenceDeps, req: Request): Promise<Response> {
  const requestId = newRequestId('req')
  try {
    const principal = await authenticate(deps, req.headers)
    const { ok, rate } = await deps.store.hit(`count_tokens:${principal.keyId}`, principal.rpm, WINDOW_MS, deps.now())
    if (!ok)
      throw new GatewayError('RATE_LIMITED', 'Too many count_tokens requests for this key; retry after the time in Retry-After.', {
        headers: rateHeaders(rate, true),
      })
    const text = await readBodyText(req, deps.config.maxBodyBytes)
    const raw = parseJsonText(text)
    const checked = validate(raw)
    if (!checked.ok)
      throw new GatewayError('VALIDATION_FAILED', `${checked.issues[0]!.path}: ${checked.issues[0]!.message}`, {
        issues: checked.issues,
        param: checked.issues[0]!.path,
      })
    const model = resolveModel(deps, checked.value.model)
    const cacheKey = sha256Hex(`${model.id}\n${req.headers.get('anthropic-beta') ?? ''}\n${text}`)
    let tokens = cacheOf(deps).get(cacheKey)
    if (tokens === undefined) {
      const counted = await upstreamCount(deps, model.routes, raw as Record<string, unknown>, req, requestId)
      tokens = counted ?? Math.max(1, Math.ceil(messagesPromptChars(checked.value) / 4))
      // Only an upstream's exact count is worth keeping; the estimate is recomputed for free.
      if (counted !== undefined) cacheOf(deps).set(cacheKey, tokens, CACHE_TTL_MS)
    }
    return Response.json({ input_tokens: tokens }, { headers: { 'x-request-id': requestId, ...rateHeaders(rate) } })
  } catch (e) {
    const err = e instanceof GatewayError ? e : new GatewayError('INTERNAL', 'Internal error.', { cause: e })
    if (err.status >= 500) deps.log.error('count_tokens failed', { requestId, cause: String(err.cause ?? err.message) })
    const { status, body } = messagesErrorBody(err)
    return new Response(body, {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...clientRetryHeaders(err), ...err.extra.headers },
    })
  }
}
