// createApp(deps): composes the features; tests call app.handle(new Request(...)).
import { Elysia } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import { sql } from 'drizzle-orm'
import { adminRoutes } from './admin/routes.ts'
import { consoleRoutes } from './console/index.ts'
import { consoleUi } from './console-ui/index.ts'
import { shapeA, shapeB } from './catalog/models-route.ts'
import { clientRetryHeaders, GatewayError } from './core/errors.ts'
import { consoleErrorHook } from './http/console-error.ts'
import { boundedDb } from './db/bounded.ts'
import { authenticate } from './inference/call.ts'
import { chatCompletions } from './inference/chat.ts'
import { countTokens } from './inference/count-tokens.ts'
import { messagesInbound } from './inference/inbound-messages.ts'
import { responsesInbound } from './inference/inbound-responses.ts'
import { protocolCall } from './inference/protocol-call.ts'
import type { InferenceDeps } from './inference/deps.ts'
import { chatErrorBody } from './protocols/chat/error.ts'
import { preflight } from './http/cors.ts'
import { surfaceHeaders } from './http/surface-headers.ts'
import { withDeadline } from './lib/deadline.ts'
import { newRequestId } from './lib/ids.ts'
import { metricsRoute } from './observability/metrics-route.ts'

export interface AppState {
  /** Set once SIGTERM arrives: /readyz answers 503 so the load balancer drains this instance. */
  draining: boolean
}

export function createApp(deps: InferenceDeps, state: AppState = { draining: false }) {
  const messages = messagesInbound(deps.config)
  const responses = responsesInbound(deps.config)
  const cors = { origins: deps.config.corsOrigins }
  const edgeHeaders = surfaceHeaders(deps.config, cors)
  // Console and admin calls wait for each Postgres statement at most DB_REQUEST_TIMEOUT_MS, then
  // answer 503 (docs/operations.md). `now` stays live: tests pin deps.now after creation.
  const apiDeps = { ...deps, db: boundedDb(deps.db, deps.config.dbRequestTimeoutMs), now: () => deps.now() }
  return (
    new Elysia()
      // Every response carries x-request-id (SPEC "Endpoints"); handlers that log under their own
      // id set it themselves and theirs wins.
      .onRequest(({ set, request, server }) => {
        set.headers['x-request-id'] = newRequestId('req')
        Object.assign(set.headers, edgeHeaders(request, server))
      })
      .onError(consoleErrorHook(deps.log))
      .get('/healthz', () => ({ status: 'ok' }))
      .get('/readyz', async ({ set }) => {
        // Bounded like every request's wait on Postgres: a blackholed database answers nothing.
        const db = withDeadline(deps.db.execute(sql`select 1`), deps.config.dbRequestTimeoutMs, 'readiness check')
        const checks = await Promise.allSettled([db, deps.store.ping()])
        const ok = !state.draining && checks.every((c) => c.status === 'fulfilled')
        set.status = ok ? 200 : 503
        return {
          status: ok ? 'ready' : state.draining ? 'draining' : 'unavailable',
          database: checks[0].status === 'fulfilled',
          store: checks[1].status === 'fulfilled',
        }
      })
      .options('/v1/*', ({ request }) => {
        if (cors.origins.length === 0) throw new GatewayError('NOT_FOUND', 'No such endpoint.')
        return preflight(cors, request.headers)
      })
      .post('/v1/chat/completions', ({ request, server }) => chatCompletions(deps, request, () => server?.timeout(request, 0)), {
        parse: 'none',
      })
      .post('/v1/messages', ({ request, server }) => protocolCall(deps, messages, request, () => server?.timeout(request, 0)), {
        parse: 'none',
      })
      .post('/v1/messages/count_tokens', ({ request }) => countTokens(deps, request), { parse: 'none' })
      .post('/v1/responses', ({ request, server }) => protocolCall(deps, responses, request, () => server?.timeout(request, 0)), {
        parse: 'none',
      })
      .get('/v1/models', async ({ request, query }) => {
        const requestId = newRequestId('req')
        try {
          const principal = await authenticate(deps, request.headers)
          const models = deps.catalog.list()
          const body = String(query.shape ?? '').toLowerCase() === 'b' ? shapeB(models, principal.serviceMode, deps.config) : shapeA(models)
          return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'x-request-id': requestId } })
        } catch (e) {
          if (!(e instanceof GatewayError)) deps.log.error('models request failed', { requestId, err: String(e) })
          const err = e instanceof GatewayError ? e : new GatewayError('INTERNAL', 'Internal error.')
          const { status, body } = chatErrorBody(err)
          return new Response(body, {
            status,
            headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...clientRetryHeaders(err), ...err.extra.headers },
          })
        }
      })
      .use(
        openapi({
          path: '/api/openapi',
          // The document covers /api; the /v1 protocols are the vendors' own (see README).
          exclude: { paths: [/^\/v1\//, '/healthz', '/readyz', '/metrics', /^\/api\/openapi/] },
          documentation: {
            info: {
              title: 'Tollgate console API',
              version: '0.1.0',
              description: 'Accounts, sessions, API keys, wallet, top-ups, logs and the public catalog (docs/console.md).',
            },
            components: {
              securitySchemes: {
                session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
                admin: { type: 'http', scheme: 'bearer' },
              },
            },
          },
        }),
      )
      .use(metricsRoute(deps.metrics, deps.config))
      .use(adminRoutes(apiDeps))
      .use(consoleRoutes(apiDeps))
      .use(consoleUi())
  )
}

export type App = ReturnType<typeof createApp>
