// What one call reports (src/observability/call-observer.ts): spans with their names, attributes
// and failures, and the metrics of admission, attempts, settlement and the end, counted once.
import { describe, expect, test } from 'bun:test'
import { CallEnded } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { resolvePolicy } from '../../src/routing/policy.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { CallObserver } from '../../src/observability/call-observer.ts'
import { Metrics } from '../../src/observability/telemetry.ts'
import type { Attributes, Span, Tracer } from '../../src/observability/tracing.ts'
import { Exposition } from '../helpers/prometheus.ts'

interface Recorded {
  name: string
  kind?: string
  attrs: Attributes
  failed?: string
  ended: number
  children: Recorded[]
}

function recordingTracer() {
  const roots: Recorded[] = []
  const spanOf = (rec: Recorded): Span => ({
    rename: (name) => void (rec.name = name),
    setAttributes: (attrs) => void Object.assign(rec.attrs, attrs),
    child: (name, attrs = {}, kind) => {
      const c: Recorded = { name, kind, attrs: { ...attrs }, ended: 0, children: [] }
      rec.children.push(c)
      return spanOf(c)
    },
    fail: (t) => void (rec.failed = t),
    end: () => void rec.ended++,
  })
  const tracer: Tracer = {
    enabled: true,
    startCall: (name, _headers, attrs) => {
      const r: Recorded = { name, attrs: { ...attrs }, ended: 0, children: [] }
      roots.push(r)
      return spanOf(r)
    },
    flush: async () => {},
    shutdown: async () => {},
  }
  return { tracer, roots }
}

const route: Route = {
  gateway: {
    id: 'gw-1',
    protocol: 'anthropic-messages',
    baseUrl: 'http://x',
    apiKey: undefined,
    timeoutMs: 1_000,
    enabled: true,
    policy: resolvePolicy({}),
  },
  upstreamModel: 'claude-up',
}

const setup = (protocol = 'chat') => {
  const metrics = new Metrics({ processMetrics: false })
  const { tracer, roots } = recordingTracer()
  const obs = new CallObserver(metrics, tracer, silentLogger, protocol, new Headers(), 'req_obs', performance.now())
  const scrape = async () => new Exposition(await metrics.scrape())
  return { metrics, obs, root: roots[0]!, scrape }
}

describe('CallObserver', () => {
  test('the call span is named by the operation, then by the resolved model', () => {
    const { obs, root } = setup()
    expect(root.name).toBe('chat')
    expect(root.attrs).toMatchObject({ 'gen_ai.operation.name': 'chat', 'tollgate.request_id': 'req_obs', 'tollgate.protocol': 'chat' })
    obs.resolved('public-model', 'anthropic', true)
    expect(root.name).toBe('chat public-model')
    expect(root.attrs).toMatchObject({
      'gen_ai.request.model': 'public-model',
      'gen_ai.provider.name': 'anthropic',
      'tollgate.stream': true,
    })
    const emb = setup('embeddings')
    expect(emb.root.name).toBe('embeddings')
  })

  test('the model label is "unknown" until the catalog resolved it', async () => {
    const { obs, scrape } = setup()
    obs.end(400, 'BAD_REQUEST', null)
    const e = await scrape()
    expect(e.value('tollgate_requests_total', { protocol: 'chat', model: 'unknown', status_class: '4xx', code: 'BAD_REQUEST' })).toBe(1)
  })

  test('end is counted exactly once, with its status class and code', async () => {
    const { obs, root, scrape } = setup()
    obs.resolved('m', 'openai', false)
    obs.end(200, null, null)
    obs.end(500, 'INTERNAL', 'tollgate')
    const e = await scrape()
    expect(e.value('tollgate_requests_total')).toBe(1)
    expect(e.value('tollgate_requests_total', { model: 'm', status_class: '2xx', code: 'none' })).toBe(1)
    expect(e.value('tollgate_errors_total')).toBe(0) // the second end counted nothing
    expect(e.count('tollgate_request_duration_seconds', { protocol: 'chat', stream: 'false' })).toBe(1)
    expect(root.ended).toBe(1)
    expect(root.failed).toBeUndefined()
    expect(root.attrs['http.response.status_code']).toBe(200)
  })

  test('an attempt the caller’s end stopped is recorded with that end’s code, never as an upstream failure', async () => {
    const { obs, root, scrape } = setup()
    for (const end of [{ kind: 'client_left' }, { kind: 'drain' }] as const)
      await obs.attempt(route, 'acme/m', async () => Promise.reject(new CallEnded(end))).catch(() => {})
    const e = await scrape()
    expect(obs.attempts.map((a) => a.outcome)).toEqual(['CLIENT_CLOSED', 'SHUTTING_DOWN'])
    expect(e.value('tollgate_upstream_attempts_total', { gateway: 'gw-1', outcome: 'CLIENT_CLOSED' })).toBe(1)
    expect(e.value('tollgate_upstream_failures_total') ?? 0).toBe(0)
    expect(root.children.map((s) => s.failed)).toEqual([undefined, undefined])
  })

  test('an attempt is timed and counted by outcome, in a client span; a failure keeps its code', async () => {
    const { obs, root, scrape } = setup()
    expect(await obs.attempt(route, 'acme/m', async () => 'answer')).toBe('answer')
    const boom = new GatewayError('UPSTREAM_TIMEOUT', 'slow', { retryable: true })
    expect(obs.attempt(route, 'acme/m', async () => Promise.reject(boom))).rejects.toBe(boom)
    await Bun.sleep(0)
    await obs.attempt(route, 'acme/m', async () => Promise.reject(new Error('raw'))).catch(() => {})
    const e = await scrape()
    expect(e.value('tollgate_upstream_attempts_total', { gateway: 'gw-1', model: 'acme/m', outcome: 'ok' })).toBe(1)
    // Each attempt recorded for the call's log, in order, with why it was left.
    expect(obs.attempts.map((a) => [a.gateway, a.model, a.upstreamModel, a.outcome])).toEqual([
      ['gw-1', 'acme/m', 'claude-up', 'ok'],
      ['gw-1', 'acme/m', 'claude-up', 'UPSTREAM_TIMEOUT'],
      ['gw-1', 'acme/m', 'claude-up', 'UPSTREAM_ERROR'],
    ])
    expect(e.value('tollgate_upstream_attempts_total', { gateway: 'gw-1', outcome: 'UPSTREAM_TIMEOUT' })).toBe(1)
    expect(e.value('tollgate_upstream_attempts_total', { gateway: 'gw-1', outcome: 'UPSTREAM_ERROR' })).toBe(1)
    expect(e.value('tollgate_upstream_failures_total', { gateway: 'gw-1', stage: 'attempt' })).toBe(2)
    expect(e.count('tollgate_upstream_attempt_duration_seconds', { gateway: 'gw-1' })).toBe(3)
    const spans = root.children
    expect(spans.map((s) => [s.name, s.kind, s.failed, s.ended])).toEqual([
      ['chat claude-up', 'client', undefined, 1],
      ['chat claude-up', 'client', 'UPSTREAM_TIMEOUT', 1],
      ['chat claude-up', 'client', 'UPSTREAM_ERROR', 1],
    ])
    expect(spans[0]!.attrs).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'tollgate.gateway': 'gw-1',
      'gen_ai.request.model': 'claude-up',
    })
  })

  test('admission has its own span, failed with the refusal’s code; refusals are counted by reason', async () => {
    const { obs, root, scrape } = setup()
    expect(await obs.admission(Promise.resolve('in'))).toBe('in')
    await obs.admission(Promise.reject(new GatewayError('PAYMENT_REQUIRED', 'no credit'))).catch(() => {})
    obs.refused('balance')
    expect(root.children.map((s) => [s.name, s.failed, s.ended])).toEqual([
      ['tollgate.admission', undefined, 1],
      ['tollgate.admission', 'PAYMENT_REQUIRED', 1],
    ])
    expect((await scrape()).value('tollgate_refusals_total', { protocol: 'chat', reason: 'balance' })).toBe(1)
  })

  test('the reservation is on the gauge from reserve until settling; settlement counts tokens and cost', async () => {
    const { obs, metrics, root, scrape } = setup()
    obs.resolved('m', 'openai', true)
    obs.reserve(5_000n)
    expect(metrics.reservedMicros).toBe(5_000)
    expect((await scrape()).value('tollgate_reserved_micros')).toBe(5_000)
    const tripStarted = performance.now()
    const trip = Promise.resolve({ outcome: 'applied' as const, answeredAt: tripStarted })
    obs.settled({
      usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 3, cacheWriteTokens: 0, reasoningTokens: 4 },
      costMicros: 1_234n,
      gateway: 'gw-1',
      tripStarted,
      trip,
    })
    await trip
    expect(metrics.reservedMicros).toBe(0)
    const e = await scrape()
    expect(e.value('tollgate_reserved_micros')).toBe(0)
    expect(e.value('tollgate_tokens_total', { model: 'm', kind: 'input' })).toBe(10)
    expect(e.value('tollgate_tokens_total', { model: 'm', kind: 'output' })).toBe(20)
    expect(e.value('tollgate_tokens_total', { model: 'm', kind: 'cache_read' })).toBe(3)
    expect(e.value('tollgate_tokens_total', { model: 'm', kind: 'cache_write' })).toBe(0)
    expect(e.value('tollgate_tokens_total', { model: 'm', kind: 'reasoning' })).toBe(4)
    expect(e.value('tollgate_cost_micros_total', { model: 'm' })).toBe(1_234)
    expect(root.attrs).toMatchObject({
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 20,
      'tollgate.cost_micros': 1_234,
      'tollgate.gateway': 'gw-1',
    })
    expect(root.children.at(-1)?.name).toBe('tollgate.settlement')
  })

  test('the first byte is observed once, at the first frame that carries content', async () => {
    const { obs, scrape } = setup()
    obs.resolved('m', 'openai', true)
    let n = 0
    const inner = {
      push: () => (++n === 1 ? [] : ['frame']),
      complete: () => [],
      close: () => [],
      error: () => [],
      usage: () => undefined,
      deliveredChars: () => 0,
    } as unknown as Parameters<CallObserver['watchFirstFrame']>[0]
    const t = obs.watchFirstFrame(inner)
    t.push({} as never)
    expect((await scrape()).count('tollgate_time_to_first_byte_seconds')).toBe(0)
    t.push({} as never)
    t.push({} as never)
    obs.firstByte()
    expect((await scrape()).count('tollgate_time_to_first_byte_seconds', { protocol: 'chat', stream: 'true' })).toBe(1)
  })

  test('a failed call’s span is failed with its code; a stream failure is counted at stage stream', async () => {
    const { obs, root, scrape } = setup()
    obs.streamFailed('gw-1', 'UPSTREAM_ERROR')
    obs.end(502, 'UPSTREAM_ERROR', 'upstream')
    expect(root.failed).toBe('UPSTREAM_ERROR')
    expect((await scrape()).value('tollgate_errors_total', { protocol: 'chat', fault: 'upstream' })).toBe(1)
    expect((await scrape()).value('tollgate_upstream_failures_total', { gateway: 'gw-1', code: 'UPSTREAM_ERROR', stage: 'stream' })).toBe(1)
  })
})
