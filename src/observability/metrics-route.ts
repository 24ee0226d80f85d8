// GET /metrics (Prometheus text format): on the main listener, or — with METRICS_PORT — on a
// listener of its own that serves nothing else. With METRICS_TOKEN it requires
// `Authorization: Bearer <token>` (401 otherwise). docs/observability.md.
import { Elysia } from 'elysia'
import { bearerMatches } from '../lib/bearer.ts'
import type { Metrics } from './telemetry.ts'

export async function metricsResponse(metrics: Metrics, token: string | undefined, req: Request): Promise<Response> {
  if (token !== undefined && !bearerMatches(token, req.headers.get('authorization')))
    return new Response('unauthorized\n', { status: 401, headers: { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' } })
  return new Response(await metrics.scrape(), { headers: { 'content-type': metrics.contentType } })
}

/** The route on the main app; absent when METRICS_PORT moves it to its own listener. */
export function metricsRoute(metrics: Metrics, config: { metricsToken: string | undefined; metricsPort: number | undefined }) {
  const app = new Elysia()
  if (config.metricsPort !== undefined) return app
  return app.get('/metrics', ({ request }) => metricsResponse(metrics, config.metricsToken, request))
}

/** The METRICS_PORT listener: /metrics and nothing else. */
export function serveMetrics(metrics: Metrics, config: { metricsToken: string | undefined; host: string }, port: number) {
  return Bun.serve({
    port,
    hostname: config.host,
    fetch: (req) =>
      req.method === 'GET' && new URL(req.url).pathname === '/metrics'
        ? metricsResponse(metrics, config.metricsToken, req)
        : new Response('not found\n', { status: 404 }),
  })
}
