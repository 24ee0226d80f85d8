// OpenTelemetry tracing against an in-memory OTLP/HTTP collector (a Bun.serve endpoint taking
// JSON exports): one server span per call with the GenAI semantic-convention attributes and the
// request id, child spans for admission, each upstream attempt and settlement, the caller's
// traceparent honoured; with no endpoint the SDK is never loaded.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fileURLToPath } from 'node:url'
import { bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { embeddingModel, embeddingsBehaviour } from '../helpers/embeddings.ts'
import { completionWithUsage, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'

interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number } }[]
  status: { code?: number; message?: string }
}

const SERVER = 2
const CLIENT = 3
const ERROR = 2

function attrs(span: OtlpSpan): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {}
  for (const a of span.attributes)
    out[a.key] =
      a.value.stringValue ??
      (a.value.intValue !== undefined ? Number(a.value.intValue) : undefined) ??
      a.value.boolValue ??
      a.value.doubleValue
  return out
}

function startCollector() {
  const spans: OtlpSpan[] = []
  const resources: Record<string, unknown>[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      if (new URL(req.url).pathname !== '/v1/traces' || req.method !== 'POST') return new Response('not found', { status: 404 })
      const body = (await req.json()) as any
      for (const rs of body.resourceSpans ?? []) {
        resources.push(Object.fromEntries(rs.resource.attributes.map((a: any) => [a.key, a.value.stringValue])))
        for (const ss of rs.scopeSpans ?? []) spans.push(...ss.spans)
      }
      return Response.json({})
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, spans, resources, stop: () => server.stop(true) }
}

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let collector: ReturnType<typeof startCollector>
  let a: FakeUpstream
  let b: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    collector = startCollector()
    a = startFakeUpstream({ kind: 'json', body: completionWithUsage(11, 7) })
    b = startFakeUpstream({ kind: 'json', body: completionWithUsage(13, 5) })
    const catalog = simpleCatalog([
      { id: 'gw-a', url: a.url },
      { id: 'gw-b', url: b.url },
    ])
    catalog.models.push(embeddingModel(['gw-a']))
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`,
      OTEL_SERVICE_NAME: 'tollgate-test',
    })
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    a.stop()
    b.stop()
    collector.stop()
  })

  /** The call span of `requestId` and its children, once exported. */
  async function traceOf(requestId: string) {
    await gw.runtime.deps.inflight.settled()
    await gw.runtime.deps.tracer.flush()
    const call = collector.spans.find((s) => attrs(s)['tollgate.request_id'] === requestId)
    expect(call).toBeDefined()
    const children = collector.spans.filter((s) => s.parentSpanId === call!.spanId && s.traceId === call!.traceId)
    return { call: call!, children, named: (name: string) => children.filter((c) => c.name === name) }
  }

  test('a call is one server span with GenAI attributes, the request id and the caller as parent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const parent = '00f067aa0ba902b7'
    const u = await gw.user(1)
    const res = await postChat(gw, u.key, {}, { traceparent: `00-${traceId}-${parent}-01` })
    expect(res.status).toBe(200)
    await res.text()
    const { call, children, named } = await traceOf(res.headers.get('x-request-id')!)
    expect(call.traceId).toBe(traceId)
    expect(call.parentSpanId).toBe(parent)
    expect(call.kind).toBe(SERVER)
    expect(call.name).toBe('chat acme/chat-1')
    expect(attrs(call)).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'acme',
      'gen_ai.request.model': 'acme/chat-1',
      'gen_ai.response.model': 'acme/chat-1',
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 7,
      'tollgate.protocol': 'chat',
      'tollgate.gateway': 'gw-a',
      'http.response.status_code': 200,
    })
    expect(call.status.code ?? 0).not.toBe(ERROR)
    expect(children.map((c) => c.name).sort()).toEqual(['chat upstream-secret-model', 'tollgate.admission', 'tollgate.settlement'])
    const attempt = named('chat upstream-secret-model')[0]!
    expect(attempt.kind).toBe(CLIENT)
    expect(attrs(attempt)).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'upstream-secret-model',
      'tollgate.gateway': 'gw-a',
    })
    expect(collector.resources.some((r) => r['service.name'] === 'tollgate-test')).toBe(true)
  }, 30_000)

  test('an embeddings call: an `embeddings` span with its input tokens, its attempt an `embeddings` client span', async () => {
    const u = await gw.user(1)
    a.script(embeddingsBehaviour())
    const body = JSON.stringify({ model: 'acme/embed-1', input: ['abcdefgh', 'ijkl'] })
    const res = await gw.request('/v1/embeddings', { method: 'POST', headers: bearer(u.key), body })
    expect(res.status).toBe(200)
    await res.text()
    const { call, named } = await traceOf(res.headers.get('x-request-id')!)
    expect(call.name).toBe('embeddings acme/embed-1')
    expect(attrs(call)).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.request.model': 'acme/embed-1',
      'gen_ai.usage.input_tokens': 3,
      'gen_ai.usage.output_tokens': 0,
      'tollgate.protocol': 'embeddings',
      'tollgate.gateway': 'gw-a',
    })
    const attempt = named('embeddings text-embedding-3-small')[0]!
    expect(attempt.kind).toBe(CLIENT)
    expect(attrs(attempt)['gen_ai.operation.name']).toBe('embeddings')
  }, 30_000)

  test('without traceparent the call span starts a trace; a failover shows both attempts, the failed one in error', async () => {
    const u = await gw.user(1)
    a.script({ kind: 'status', status: 503 })
    const res = await postChat(gw, u.key)
    expect(res.status).toBe(200)
    await res.text()
    const { call, named } = await traceOf(res.headers.get('x-request-id')!)
    expect(call.parentSpanId ?? '').toBe('')
    const attempts = named('chat upstream-secret-model')
    expect(attempts.map((s) => attrs(s)['tollgate.gateway']).sort()).toEqual(['gw-a', 'gw-b'])
    const failed = attempts.find((s) => attrs(s)['tollgate.gateway'] === 'gw-a')!
    expect(failed.status.code).toBe(ERROR)
    expect(attrs(failed)['error.type']).toBe('UPSTREAM_ERROR')
    expect(attrs(call)).toMatchObject({ 'tollgate.gateway': 'gw-b', 'gen_ai.usage.input_tokens': 13 })
  }, 30_000)

  test('a stream and a refused call: the stream span ends with its usage; a 402 span is in error with no attempt', async () => {
    const u = await gw.user(1)
    a.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 97 })
    const res = await postChat(gw, u.key, { stream: true })
    expect(res.status).toBe(200)
    await res.text()
    const stream = await traceOf(res.headers.get('x-request-id')!)
    expect(attrs(stream.call)).toMatchObject({ 'tollgate.stream': true, 'http.response.status_code': 200 })
    expect(attrs(stream.call)['gen_ai.usage.output_tokens']).toBeGreaterThan(0)
    expect(stream.named('tollgate.settlement')).toHaveLength(1)

    const broke = await gw.user(0)
    const refused = await postChat(gw, broke.key)
    expect(refused.status).toBe(402)
    const r = await traceOf(refused.headers.get('x-request-id')!)
    expect(r.call.status.code).toBe(ERROR)
    expect(attrs(r.call)).toMatchObject({ 'error.type': 'PAYMENT_REQUIRED', 'http.response.status_code': 402 })
    expect(r.children.map((c) => c.name)).toEqual(['tollgate.admission'])
    expect(r.children[0]!.status.code).toBe(ERROR)
    expect(attrs(r.children[0]!)['error.type']).toBe('PAYMENT_REQUIRED')
  }, 30_000)
})

// prom-client itself loads @opentelemetry/api (its no-op API, for exemplars); the SDK, exporter
// and their dependencies must stay out.
test('with no OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry SDK module is loaded', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const script = `
    const { loadConfig } = await import('./src/config.ts')
    const { createRuntime } = await import('./src/runtime.ts')
    const { createApp } = await import('./src/app.ts')
    const { silentLogger } = await import('./src/lib/log.ts')
    const runtime = await createRuntime(loadConfig({ DATABASE_URL: 'memory://' }), { log: silentLogger, catalogRefreshMs: 0, writerBlockMs: 20 })
    const app = createApp(runtime.deps)
    await app.handle(new Request('http://t/v1/chat/completions', { method: 'POST', body: '{}' }))
    const loaded = Object.keys(require.cache).filter((k) => k.includes('@opentelemetry/') && !k.includes('@opentelemetry/api/'))
    console.log(JSON.stringify({ enabled: runtime.deps.tracer.enabled, loaded: loaded.length, prom: Object.keys(require.cache).some((k) => k.includes('prom-client')) }))
    await runtime.stop()`
  const proc = Bun.spawn([process.execPath, '-e', script], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  expect(err).toBe('')
  expect(code).toBe(0)
  // prom-client shows the check sees loaded packages at all.
  expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ enabled: false, loaded: 0, prom: true })
}, 60_000)
