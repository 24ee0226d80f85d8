// The OpenTelemetry tracer against a collector of our own (a Bun.serve taking OTLP/HTTP JSON):
// the caller's traceparent is the call span's parent, children hang under the call span,
// undefined attributes are left out, a failure marks the span, and an unreachable collector is
// logged on flush, not thrown.
import { afterAll, describe, expect, test } from 'bun:test'
import type { Logger } from '../../src/lib/log.ts'
import { otelTracer } from '../../src/observability/otel.ts'

type Span = {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: { key: string; value: Record<string, unknown> }[]
  status: { code?: number; message?: string }
}

const spans: Span[] = []
const services: string[] = []
const collector = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    if (new URL(req.url).pathname !== '/v1/traces') return new Response('no', { status: 404 })
    const body = (await req.json()) as {
      resourceSpans?: { resource: { attributes: Span['attributes'] }; scopeSpans?: { spans: Span[] }[] }[]
    }
    for (const rs of body.resourceSpans ?? []) {
      for (const a of rs.resource.attributes) if (a.key === 'service.name') services.push(String(a.value.stringValue))
      for (const ss of rs.scopeSpans ?? []) spans.push(...ss.spans)
    }
    return Response.json({})
  },
})
afterAll(() => collector.stop(true))

const attrsOf = (s: Span) => Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]]))
const warnings: string[] = []
const log: Logger = { debug() {}, info() {}, error() {}, warn: (msg) => void warnings.push(msg) }

describe('otelTracer', () => {
  test('a call span continues the caller’s trace; its children hang under it; failures are marked', async () => {
    // A trailing slash on the endpoint is tolerated.
    const tracer = otelTracer(`http://127.0.0.1:${collector.port}/`, 'tollgate-test', log)
    expect(tracer.enabled).toBe(true)
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const parentId = '00f067aa0ba902b7'
    const call = tracer.startCall('chat', new Headers({ traceparent: `00-${traceId}-${parentId}-01` }), {
      'tollgate.request_id': 'req_otel',
      'tollgate.skipped': undefined,
    })
    call.rename('chat my-model')
    call.setAttributes({ 'gen_ai.usage.input_tokens': 12, 'tollgate.stream': true })
    const attempt = call.child('chat up-model', { 'tollgate.gateway': 'gw-1' }, 'client')
    attempt.fail('UPSTREAM_TIMEOUT')
    attempt.end()
    call.child('tollgate.settlement').end()
    call.end()
    await tracer.flush()
    await tracer.shutdown()

    const root = spans.find((s) => s.name === 'chat my-model')!
    expect(root).toBeDefined()
    expect(root.traceId).toBe(traceId)
    expect(root.parentSpanId).toBe(parentId)
    expect(root.kind).toBe(2) // SERVER
    expect(attrsOf(root)).toMatchObject({ 'tollgate.request_id': 'req_otel', 'tollgate.stream': true })
    expect(Number(attrsOf(root)['gen_ai.usage.input_tokens'])).toBe(12)
    expect('tollgate.skipped' in attrsOf(root)).toBe(false)

    const up = spans.find((s) => s.name === 'chat up-model')!
    expect(up.parentSpanId).toBe(root.spanId)
    expect(up.traceId).toBe(traceId)
    expect(up.kind).toBe(3) // CLIENT
    expect(up.status).toMatchObject({ code: 2, message: 'UPSTREAM_TIMEOUT' })
    expect(attrsOf(up)['error.type']).toBe('UPSTREAM_TIMEOUT')

    const settle = spans.find((s) => s.name === 'tollgate.settlement')!
    expect(settle.parentSpanId).toBe(root.spanId)
    expect(settle.kind).toBe(1) // INTERNAL
    expect(services).toContain('tollgate-test')
  })

  test('without a traceparent the call starts its own trace', async () => {
    const tracer = otelTracer(`http://127.0.0.1:${collector.port}`, 'tollgate-test', log)
    tracer.startCall('lonely', new Headers(), {}).end()
    await tracer.shutdown()
    const s = spans.find((x) => x.name === 'lonely')!
    expect(s.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(s.parentSpanId ?? '').toBe('')
  })

  test('an unreachable collector is a warning on flush, never an exception', async () => {
    const gone = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
    const port = gone.port
    gone.stop(true)
    const tracer = otelTracer(`http://127.0.0.1:${port}`, 'tollgate-test', log)
    tracer.startCall('lost', new Headers(), {}).end()
    warnings.length = 0
    await tracer.flush()
    await tracer.shutdown()
    expect(warnings.length).toBeGreaterThan(0)
  })
})
