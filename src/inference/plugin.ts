// Every /v1 route in one named Elysia plugin: the three protocol calls and embeddings (pipeline.ts),
// count_tokens, the model list, one model, the key's own state (keyed-read.ts) and the CORS
// preflight. Each answers its errors through error-response.ts in its protocol's envelope (the
// preflight's 404 is the app's).
import type { Db } from '../db/client.ts'
import { Elysia } from 'elysia'
import { pathOf } from '../http/surface-headers.ts'
import type { Catalog } from '../catalog/catalog.ts'
import { shapeA, shapeB } from '../catalog/models-route.ts'
import { modelById } from '../catalog/model-by-id.ts'
import { keyStatus } from '../auth/key-status.ts'
import type { Config } from '../config.ts'
import { GatewayError } from '../core/errors.ts'
import { clientInfo, peerAddress } from '../http/client.ts'
import { preflight } from '../http/cors.ts'
import { ipMatcher } from '../lib/ip.ts'
import { newRequestId } from '../lib/ids.ts'
import { chatErrorBody } from '../protocols/chat/error.ts'
import { protocolSpokes } from '../protocols/registry.ts'
import { authenticate } from './admission.ts'
import { type CountTokensDeps, countTokens } from './count-tokens.ts'
import { asGatewayError } from '../core/call-end.ts'
import { errorResponse } from './error-response.ts'
import { checkClientIp } from './key-access.ts'
import { keyedRead } from './keyed-read.ts'
import { type CallSocket, type PipelineDeps, protocolCall } from './pipeline.ts'

export type V1Deps = PipelineDeps & CountTokensDeps & { catalog: Catalog; config: Config; db: Db }

/**
 * The /v1 routes whose every answer, success or error, carries its own x-request-id: the app's
 * request hook leaves them alone, so Elysia hands their Response to Bun as it is instead of
 * merging hook headers into a copy (docs/benchmarks-log.md "Where the time goes in the /v1 pipeline").
 */
const OWN_ID_ROUTES = new Map([
  ['/v1/chat/completions', 'POST'],
  ['/v1/messages', 'POST'],
  ['/v1/messages/count_tokens', 'POST'],
  ['/v1/responses', 'POST'],
  ['/v1/embeddings', 'POST'],
  ['/v1/models', 'GET'],
])
export function answersWithOwnId(request: Request): boolean {
  return OWN_ID_ROUTES.get(pathOf(request.url)) === request.method
}

/** Server.timeout(request, 0) once a call became a long-lived stream (Bun's idle timeout lifted). */
type Lift = { timeout(req: Request, seconds: number): void } | null

type CallHandler = (request: Request, server: Lift) => Promise<Response>

/** How the server sees a request: its idle timeout lifted for a stream, the client's address. */
function socketOf(deps: V1Deps): (server: Lift, request: Request) => CallSocket {
  const trusted = ipMatcher(deps.config.trustedProxies)
  return (server, request) => ({
    onStream: () => server?.timeout(request, 0),
    clientIp: () => clientInfo(new URL(request.url), request.headers, peerAddress(server, request), trusted).ip,
  })
}

/** The /v1 calls: each takes the request and the server it came through, and answers every outcome itself. */
function callHandlers(deps: V1Deps): Record<string, CallHandler> {
  const spokes = protocolSpokes(deps.config)
  const socket = socketOf(deps)
  return {
    '/v1/chat/completions': (request, server) => protocolCall(deps, spokes.chat, request, socket(server, request)),
    '/v1/messages': (request, server) => protocolCall(deps, spokes.messages, request, socket(server, request)),
    '/v1/messages/count_tokens': (request, server) => countTokens(deps, request, socket(server, request).clientIp),
    '/v1/responses': (request, server) => protocolCall(deps, spokes.responses, request, socket(server, request)),
    '/v1/embeddings': (request, server) => protocolCall(deps, spokes.embeddings, request, socket(server, request)),
  }
}

/**
 * The /v1 calls for Bun's own router (Bun.serve `routes`), which the server tries before the app:
 * a call then reaches its pipeline without Elysia's context, hooks and response mapping
 * (docs/benchmarks.md "Where each microsecond goes"). They answer exactly what the app's routes
 * answer; with CORS origins configured there are none, and every /v1 request goes through the
 * app's hook that adds the CORS grant.
 */
export function v1ServerRoutes(deps: V1Deps): Record<string, { POST: (request: Request, server: Lift) => Promise<Response> }> {
  if (deps.config.corsOrigins.length > 0) return {}
  const routes: Record<string, { POST: CallHandler }> = {}
  for (const [path, handler] of Object.entries(callHandlers(deps))) routes[path] = { POST: handler }
  return routes
}

export function v1Routes(deps: V1Deps) {
  const cors = { origins: deps.config.corsOrigins }
  const socket = socketOf(deps)
  const calls = callHandlers(deps)
  const app = new Elysia({ name: 'tollgate.v1' }).options('/v1/*', ({ request }) => {
    if (cors.origins.length === 0) throw new GatewayError('NOT_FOUND', 'No such endpoint.')
    return preflight(cors, request.headers)
  })
  for (const [path, handler] of Object.entries(calls)) app.post(path, ({ request, server }) => handler(request, server), { parse: 'none' })
  return app
    .get('/v1/models', async ({ request, query, server }) => {
      const requestId = newRequestId('req')
      try {
        const principal = await authenticate(deps.auth, request.headers)
        checkClientIp(principal, socket(server, request).clientIp)
        const models = deps.catalog.list().filter((m) => principal.allowsModel(m.id))
        const body = String(query.shape ?? '').toLowerCase() === 'b' ? shapeB(models, principal.serviceMode, deps.config) : shapeA(models)
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'x-request-id': requestId } })
      } catch (e) {
        return errorResponse(chatErrorBody, asGatewayError(e), requestId, deps.log, 'models request')
      }
    })
    .get('/v1/models/*', ({ request, params, query, server }) =>
      keyedRead(
        deps,
        request,
        'model request',
        (principal) =>
          modelById(
            deps.catalog,
            params['*'],
            { b: String(query.shape ?? '').toLowerCase() === 'b', serviceMode: principal.serviceMode, config: deps.config },
            principal.allowsModel,
          ),
        socket(server, request).clientIp,
      ),
    )
    .get('/v1/key', ({ request, server }) =>
      keyedRead(deps, request, 'key request', (principal) => keyStatus(deps, principal), socket(server, request).clientIp),
    )
}
