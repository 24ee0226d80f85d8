// GET /metrics: the exposition with its content type; with a token, only for the right bearer;
// on its own listener (METRICS_PORT) nothing but /metrics, and then absent from the main app.
import { afterAll, describe, expect, test } from 'bun:test'
import { metricsResponse, metricsRoute, serveMetrics } from '../../src/observability/metrics-route.ts'
import { Metrics } from '../../src/observability/telemetry.ts'

const metrics = new Metrics({ processMetrics: false })
metrics.m.refusals.inc({ protocol: 'chat', reason: 'balance' })
const get = (path = '/metrics', auth?: string) => new Request(`http://gw.test${path}`, { headers: auth ? { authorization: auth } : {} })

describe('metricsResponse', () => {
  test('without a token: the exposition, typed as Prometheus text', async () => {
    const res = await metricsResponse(metrics, undefined, get())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(metrics.contentType)
    expect(await res.text()).toContain('tollgate_refusals_total{protocol="chat",reason="balance"} 1')
  })

  test.each([undefined, 'Bearer wrong', 'Basic c2VjcmV0', 'secret'])('with a token, %p is 401 with a Bearer challenge', async (auth) => {
    const res = await metricsResponse(metrics, 'secret', get('/metrics', auth))
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
    expect(await res.text()).not.toContain('tollgate_')
  })

  test('with a token, the right bearer gets the exposition', async () => {
    const res = await metricsResponse(metrics, 'secret', get('/metrics', 'Bearer secret'))
    expect(res.status).toBe(200)
  })
})

describe('metricsRoute', () => {
  test('on the main app when no METRICS_PORT', async () => {
    const app = metricsRoute(metrics, { metricsToken: undefined, metricsPort: undefined })
    expect((await app.handle(get())).status).toBe(200)
  })

  test('absent from the main app when METRICS_PORT moves it', async () => {
    const app = metricsRoute(metrics, { metricsToken: undefined, metricsPort: 9999 })
    expect((await app.handle(get())).status).toBe(404)
  })
})

describe('serveMetrics', () => {
  const server = serveMetrics(metrics, { metricsToken: 'tok', host: '127.0.0.1' }, 0)
  afterAll(() => server.stop(true))
  const base = `http://127.0.0.1:${server.port}`

  test('serves /metrics behind its token', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401)
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer tok' } })
    expect(ok.status).toBe(200)
    expect(await ok.text()).toContain('tollgate_refusals_total')
  })

  test('and nothing else', async () => {
    expect((await fetch(`${base}/v1/models`, { headers: { authorization: 'Bearer tok' } })).status).toBe(404)
    expect((await fetch(`${base}/metrics`, { method: 'POST', headers: { authorization: 'Bearer tok' } })).status).toBe(404)
  })
})
