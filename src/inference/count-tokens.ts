// POST /v1/messages/count_tokens (Anthropic; Claude Code calls it before requests). Free, but
// bounded (docs/api.md "count_tokens"): each call counts in a window of its own per key,
// as many per minute as the key's rpm, so a key cannot spend the operator's upstream quota
// without limit; identical requests are answered from a cache without asking upstream again.
// When the model has an Anthropic route, that upstream counts with its own tokenizer (its
// routes in order, first answer wins); otherwise, or when they all fail, the gateway answers
// its conservative estimate (~4 characters per token, inline media by size class).
import type { ApiKeyAuth } from '../auth/api-keys.ts'
import type { Catalog } from '../catalog/catalog.ts'
import type { Config } from '../config.ts'
import { GatewayError } from '../core/errors.ts'
import type { Route } from '../core/gateway.ts'
import { parseJsonText, readBodyText } from '../http/body.ts'
import { rateHeaders } from '../http/rate-headers.ts'
import { newRequestId, sha256Hex } from '../lib/ids.ts'
import type { Logger } from '../lib/log.ts'
import { TtlLru } from '../lib/lru.ts'
import { messagesPromptChars } from '../protocols/messages/decode.ts'
import { messagesErrorBody } from '../protocols/messages/error.ts'
import { anthropicPassHeaders, MESSAGES_ID_HEADERS } from '../protocols/messages/index.ts'
import { CountTokensRequest } from '../protocols/messages/schema.ts'
import { bodyParser } from '../protocols/common/parse.ts'
import { anthropicAdapter } from '../providers/anthropic-messages/adapter.ts'
import { upstreamJson } from '../providers/transport/http.ts'
import type { Store } from '../store/types.ts'
import { authenticate } from './admission.ts'
import { resolveModel } from '../catalog/catalog.ts'
import { checkClientIp, checkModel } from './key-access.ts'
import { asGatewayError } from '../core/call-end.ts'
import { errorResponse } from './error-response.ts'

export interface CountTokensDeps {
  auth: Pick<ApiKeyAuth, 'verify'>
  catalog: Pick<Catalog, 'lookup'>
  store: Pick<Store, 'hit'>
  log: Logger
  now: () => number
  config: Pick<Config, 'maxBodyBytes'>
}

const parse = bodyParser(CountTokensRequest)
const WINDOW_MS = 60_000
const CACHE_TTL_MS = 10 * 60_000

/** Counts by request, per process (one cache per deps). */
const caches = new WeakMap<CountTokensDeps, TtlLru<string, number>>()
const cacheOf = (deps: CountTokensDeps) => caches.get(deps) ?? (caches.set(deps, new TtlLru(10_000)), caches.get(deps)!)

async function upstreamCount(
  deps: CountTokensDeps,
  routes: Route[],
  raw: Record<string, unknown>,
  req: Request,
  requestId: string,
): Promise<number | undefined> {
  const pass = anthropicPassHeaders(req.headers)
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

export async function countTokens(
  deps: CountTokensDeps,
  req: Request,
  clientIp: () => string | undefined = () => undefined,
): Promise<Response> {
  const requestId = newRequestId('req')
  try {
    const principal = await authenticate(deps.auth, req.headers)
    checkClientIp(principal, clientIp)
    const { ok, rate } = await deps.store.hit(`count_tokens:${principal.keyId}`, principal.rpm, WINDOW_MS, deps.now())
    if (!ok)
      throw new GatewayError('RATE_LIMITED', 'Too many count_tokens requests for this key; retry after the time in Retry-After.', {
        headers: rateHeaders(rate, true),
      })
    const text = await readBodyText(req, deps.config.maxBodyBytes)
    const raw = parseJsonText(text)
    const body = parse(raw)
    checkModel(principal, body.model)
    const model = resolveModel(deps.catalog, body.model)
    const cacheKey = sha256Hex(`${model.id}\n${req.headers.get('anthropic-beta') ?? ''}\n${text}`)
    let tokens = cacheOf(deps).get(cacheKey)
    if (tokens === undefined) {
      const counted = await upstreamCount(deps, model.routes, raw as Record<string, unknown>, req, requestId)
      tokens = counted ?? Math.max(1, Math.ceil(messagesPromptChars(body) / 4))
      // Only an upstream's exact count is worth keeping; the estimate is recomputed for free.
      if (counted !== undefined) cacheOf(deps).set(cacheKey, tokens, CACHE_TTL_MS)
    }
    const headers: Record<string, string> = rateHeaders(rate)
    for (const h of MESSAGES_ID_HEADERS) headers[h] = requestId
    return Response.json({ input_tokens: tokens }, { headers })
  } catch (e) {
    return errorResponse(messagesErrorBody, asGatewayError(e), requestId, deps.log, 'count_tokens', MESSAGES_ID_HEADERS)
  }
}
