// createApp(deps): composes the features; tests call app.handle(new Request(...)).
import { Elysia } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import { sql } from 'drizzle-orm'
import { adminRoutes } from './admin/index.ts'
import { consoleRoutes } from './console/index.ts'
import { consoleUi } from './console-ui/index.ts'
import { consoleErrorHook } from './http/console-error.ts'
import { answersWithOwnId, v1Routes, v1ServerRoutes } from './inference/plugin.ts'
import { boundedDb } from './db/bounded.ts'
import { surfaceHeaders } from './http/surface-headers.ts'
import { withDeadline } from './lib/deadline.ts'
import { newRequestId } from './lib/ids.ts'
import { metricsRoute } from './observability/metrics-route.ts'
import type { AppDeps } from './runtime.ts'

export type { AppDeps } from './runtime.ts'

export interface AppState {
  /** Set once SIGTERM arrives: /readyz answers 503 so the load balancer drains this instance. */
  draining: boolean
}

export function createApp(deps: AppDeps, state: AppState = { draining: false }) {
  const edgeHeaders = surfaceHeaders(deps.config, { origins: deps.config.corsOrigins })
  // Console and admin calls wait for each Postgres statement at most DB_REQUEST_TIMEOUT_MS, then
  // answer 503 (docs/operations.md). `now` stays live: tests pin deps.now after creation.
  const apiDeps = { ...deps, db: boundedDb(deps.db, deps.config.dbRequestTimeoutMs), now: () => deps.now() }
  const corsOn = deps.config.corsOrigins.length > 0
  return (
    // The /v1 calls are also Bun's own routes, served before the app (inference/plugin.ts).
    new Elysia({ serve: { routes: v1ServerRoutes(deps) } })
      // Every response carries x-request-id (docs/api.md "Request ids"); handlers that log under their own
      // id set it themselves and theirs wins. The /v1 calls always do, and without CORS they need
      // nothing else here: left untouched, their Response is not copied
      // (docs/benchmarks-log.md "Where the time goes in the /v1 pipeline").
      .onRequest(({ set, request, server }) => {
        const ownId = answersWithOwnId(request)
        if (ownId && !corsOn) return
        if (!ownId) set.headers['x-request-id'] = newRequestId('req')
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
        const answer = {
          status: ok ? 'ready' : state.draining ? 'draining' : 'unavailable',
          database: checks[0].status === 'fulfilled',
          store: checks[1].status === 'fulfilled',
        }
        // A detail, not a condition of readiness: null when Redis does not say (docs/api.md "Health, readiness and metrics").
        if (deps.store.kind !== 'redis') return answer
        return { ...answer, redisAof: (answer.store ? await deps.store.appendOnly() : undefined) ?? null }
      })
      .use(v1Routes(deps))
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
