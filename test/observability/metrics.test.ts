// GET /metrics after a scripted mix of calls (JSON, stream, messages, 401, unknown model, 402,
// key limit, 429, failover, upstream failure): every counter and histogram count moves by
// exactly what was sent, tokens and cost equal what the ledger billed, the scrape-time gauges
// (open streams, reservations, outbox) return to zero once settled, and no label carries a
// user, key or client-chosen string. Then METRICS_TOKEN and METRICS_PORT.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { inArray } from 'drizzle-orm'
import { loadConfig } from '../../src/config.ts'
import { requestDaily, requestLogs } from '../../src/db/schema/index.ts'
import { serveMetrics } from '../../src/observability/metrics-route.ts'
import { Metrics } from '../../src/observability/telemetry.ts'
import { ALL_BACKENDS, bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { completionWithUsage, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'
import { delta, Exposition } from '../helpers/prometheus.ts'

const TOKEN = 'metrics-token-0123456789abcdef'

async function scrape(gw: TestGateway, headers: Record<string, string> = {}): Promise<Exposition> {
  const res = await gw.request('/metrics', { headers })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain')
  return new Exposition(await res.text())
}

for (const backends of ALL_BACKENDS) {
  describe(`metrics on ${backends.db}+${backends.store}`, () => {
    let a: FakeUpstream
    let b: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      a = startFakeUpstream({ kind: 'json', body: completionWithUsage(11, 7) })
      b = startFakeUpstream({ kind: 'json', body: completionWithUsage(13, 5) })
      const catalog = simpleCatalog([
        { id: 'gw-a', url: a.url },
        { id: 'gw-b', url: b.url },
      ])
      catalog.models.push({ ...catalog.models[0]!, id: 'acme/a-only', routes: [{ gateway: 'gw-a', model: 'upstream-secret-model' }] })
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      a.stop()
      b.stop()
    })

    test('a scripted mix moves every counter by exactly what was sent; tokens and cost equal the ledger', async () => {
      const rich = await gw.user(1)
      const broke = await gw.user(0)
      const limited = await gw.user(1, { limit: 0.000001 })
      const slow = await gw.user(1, { rpm: 1 })
      await gw.settled()
      const before = await scrape(gw)
      const ids: string[] = []
      const sent = async (res: Promise<Response>, status: number) => {
        const r = await res
        await r.text()
        expect(r.status).toBe(status)
        ids.push(r.headers.get('x-request-id')!)
      }
      await sent(postChat(gw, rich.key), 200) // 1, 2: JSON on gw-a
      await sent(postChat(gw, rich.key), 200)
      a.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 97 })
      await sent(postChat(gw, rich.key, { stream: true }), 200) // 3: stream
      const messages = JSON.stringify({ model: 'acme/chat-1', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })
      await sent(gw.request('/v1/messages', { method: 'POST', headers: bearer(rich.key), body: messages }), 200) // 4: messages protocol
      await sent(postChat(gw, 'sk-not-a-real-key'), 401) // 5: no principal, no outbox record
      await sent(postChat(gw, rich.key, { model: 'client/any-string-at-all' }), 503) // 6: MODEL_NOT_FOUND
      await sent(postChat(gw, broke.key), 402) // 7: balance
      await sent(postChat(gw, limited.key), 402) // 8: key limit
      await sent(postChat(gw, slow.key), 200) // 9
      await sent(postChat(gw, slow.key), 429) // 10: rate limit
      a.script({ kind: 'status', status: 500 })
      await sent(postChat(gw, rich.key), 200) // 11: failover gw-a → gw-b
      a.script({ kind: 'status', status: 503 })
      await sent(postChat(gw, rich.key, { model: 'acme/a-only' }), 502) // 12: every route failed
      await gw.settled()
      const after = await scrape(gw)
      const d = (name: string, labels: Record<string, string> = {}) => delta(before, after, name, labels)

      // Requests by protocol, model, class and code; durations; first bytes of answered calls.
      expect(d('tollgate_requests_total')).toBe(12)
      expect(d('tollgate_requests_total', { protocol: 'chat', model: 'acme/chat-1', status_class: '2xx', code: 'none' })).toBe(5)
      expect(d('tollgate_requests_total', { protocol: 'messages', model: 'acme/chat-1', status_class: '2xx' })).toBe(1)
      expect(d('tollgate_requests_total', { model: 'unknown', status_class: '4xx', code: 'UNAUTHORIZED' })).toBe(1)
      expect(d('tollgate_requests_total', { model: 'unknown', status_class: '5xx', code: 'MODEL_NOT_FOUND' })).toBe(1)
      expect(d('tollgate_requests_total', { model: 'acme/chat-1', code: 'PAYMENT_REQUIRED' })).toBe(2)
      expect(d('tollgate_requests_total', { model: 'acme/chat-1', status_class: '4xx', code: 'RATE_LIMITED' })).toBe(1)
      expect(d('tollgate_requests_total', { model: 'acme/a-only', status_class: '5xx', code: 'UPSTREAM_ERROR' })).toBe(1)
      // Errors by whose failure ended the call, not by status: the unknown model (503), 402 and 429
      // are the client's; only the call every route failed is an error (the upstream's).
      expect(d('tollgate_errors_total')).toBe(1)
      expect(d('tollgate_errors_total', { protocol: 'chat', model: 'acme/a-only', fault: 'upstream' })).toBe(1)
      expect(d('tollgate_request_duration_seconds')).toBe(12)
      expect(d('tollgate_request_duration_seconds', { protocol: 'chat', stream: 'true' })).toBe(1)
      expect(d('tollgate_time_to_first_byte_seconds')).toBe(6)
      expect(d('tollgate_time_to_first_byte_seconds', { stream: 'true' })).toBe(1)
      // Refusals at admission.
      expect(d('tollgate_refusals_total', { reason: 'balance' })).toBe(1)
      expect(d('tollgate_refusals_total', { reason: 'key_limit' })).toBe(1)
      expect(d('tollgate_refusals_total', { reason: 'rate_limit' })).toBe(1)
      expect(d('tollgate_refusals_total')).toBe(3)
      // Upstream attempts, failovers, failures: 5 answered by gw-a + 1 by gw-b; gw-a failed twice.
      expect(d('tollgate_upstream_attempts_total', { gateway: 'gw-a', outcome: 'ok' })).toBe(5)
      expect(d('tollgate_upstream_attempts_total', { gateway: 'gw-b', outcome: 'ok' })).toBe(1)
      expect(d('tollgate_upstream_attempts_total', { gateway: 'gw-a' })).toBe(7)
      expect(d('tollgate_upstream_failures_total', { gateway: 'gw-a', stage: 'attempt' })).toBe(2)
      expect(d('tollgate_upstream_failures_total', { gateway: 'gw-b' })).toBe(0)
      expect(d('tollgate_upstream_failovers_total', { gateway: 'gw-a' })).toBe(1)
      expect(d('tollgate_upstream_failovers_total')).toBe(1)
      expect(d('tollgate_upstream_attempt_duration_seconds')).toBe(8)
      // Store: one settle round trip per admitted call; at least one admit per call that got there.
      expect(d('tollgate_store_roundtrip_seconds', { op: 'settle' })).toBe(7)
      expect(d('tollgate_store_roundtrip_seconds', { op: 'admit' })).toBeGreaterThanOrEqual(10)
      expect(d('tollgate_store_errors_total')).toBe(0)
      // Ledger writer: every call after authentication left exactly one record.
      expect(d('tollgate_ledger_writer_records_total')).toBe(11)
      expect(d('tollgate_ledger_writer_batch_records')).toBeGreaterThanOrEqual(1)
      expect(d('tollgate_ledger_writer_dead_letters_total')).toBe(0)
      expect(d('tollgate_ledger_writer_failures_total')).toBe(0)

      // Tokens and cost by model are what the request log (and so the ledger) billed.
      const rows = await gw.runtime.deps.db.select().from(requestLogs).where(inArray(requestLogs.id, ids))
      // The log and the report rollup count errors the same way.
      expect(rows.filter((r) => r.fault !== null).map((r) => [r.model, r.fault])).toEqual([['acme/a-only', 'upstream']])
      const failedOver = rows.find((r) => r.id === ids[10])!
      expect(failedOver.attempts!.map((a) => [a.gateway, a.outcome])).toEqual([
        ['gw-a', 'UPSTREAM_ERROR'],
        ['gw-b', 'ok'],
      ])
      const daily = await gw.runtime.deps.db
        .select()
        .from(requestDaily)
        .where(inArray(requestDaily.userId, [rich.userId, broke.userId, limited.userId, slow.userId]))
      expect(daily.reduce((n, r) => n + r.calls, 0n)).toBe(11n)
      expect(daily.filter((r) => r.errors > 0n).map((r) => [r.model, r.errors])).toEqual([['acme/a-only', 1n]])
      expect(rows).toHaveLength(11)
      const billed = rows.filter((r) => r.model === 'acme/chat-1')
      expect(d('tollgate_tokens_total', { model: 'acme/chat-1', kind: 'input' })).toBe(billed.reduce((s, r) => s + r.inputTokens, 0))
      expect(d('tollgate_tokens_total', { model: 'acme/chat-1', kind: 'output' })).toBe(billed.reduce((s, r) => s + r.outputTokens, 0))
      expect(d('tollgate_tokens_total', { model: 'acme/chat-1', kind: 'input' })).toBeGreaterThan(0)
      expect(d('tollgate_tokens_total', { model: 'acme/a-only' })).toBe(0)
      const cost = billed.reduce((s, r) => s + r.costMicros, 0n)
      expect(cost).toBeGreaterThan(0n)
      expect(BigInt(d('tollgate_cost_micros_total', { model: 'acme/chat-1' }))).toBe(cost)
      expect(BigInt(d('tollgate_cost_micros_total'))).toBe(cost)
      const books = await gw.books(rich.userId)
      expect(books.balance).toBe(books.ledgerSum)
      expect(1_000_000n - books.balance).toBe(billed.filter((r) => r.userId === rich.userId).reduce((s, r) => s + r.costMicros, 0n))

      // Scrape-time gauges once everything settled.
      expect(after.value('tollgate_open_streams')).toBe(0)
      expect(after.value('tollgate_reserved_micros')).toBe(0)
      expect(after.value('tollgate_outbox_depth')).toBe(0)
      expect(after.value('tollgate_ledger_lag_seconds')).toBe(0)
      expect(after.value('tollgate_store_up')).toBe(1)
      expect(after.value('tollgate_database_up')).toBe(1)
      expect(after.value('process_resident_memory_bytes')).toBeGreaterThan(0)

      // Bounded labels: catalog ids or "unknown"; nothing of a user, a key or the client's string.
      expect(after.labelValues('tollgate_requests_total', 'model')).toEqual(['acme/a-only', 'acme/chat-1', 'unknown'])
      for (const secret of [rich.userId, rich.keyId, rich.key, 'client/any-string-at-all', 'upstream-secret-model', ...ids])
        expect(after.text).not.toContain(secret)
    }, 60_000)

    test('a stream that breaks mid-way counts as a stream-stage failure and a 502 call; an unreadable outbox record as a dead letter', async () => {
      const u = await gw.user(1)
      await gw.settled()
      const before = await scrape(gw)
      const sse = fixtureSse('openai-chat', 'stream-text-usage.sse')
      a.script({ kind: 'drop', text: sse, bytes: Math.floor(sse.length / 2) })
      const res = await postChat(gw, u.key, { stream: true })
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('"error"')
      await gw.runtime.deps.store.appendOutbox(u.userId, '{"not":"a record"}')
      await gw.settled()
      const after = await scrape(gw)
      expect(delta(before, after, 'tollgate_upstream_failures_total', { gateway: 'gw-a', stage: 'stream', code: 'UPSTREAM_ERROR' })).toBe(1)
      expect(delta(before, after, 'tollgate_upstream_failures_total', { stage: 'attempt' })).toBe(0)
      expect(delta(before, after, 'tollgate_upstream_attempts_total', { gateway: 'gw-a', outcome: 'ok' })).toBe(1)
      expect(delta(before, after, 'tollgate_requests_total', { model: 'acme/chat-1', status_class: '5xx', code: 'UPSTREAM_ERROR' })).toBe(1)
      expect(delta(before, after, 'tollgate_requests_total')).toBe(1)
      expect(delta(before, after, 'tollgate_ledger_writer_dead_letters_total', { reason: 'unreadable' })).toBe(1)
      expect(delta(before, after, 'tollgate_ledger_writer_records_total')).toBe(1)
      expect(after.value('tollgate_outbox_depth')).toBe(0)
      expect(after.value('tollgate_reserved_micros')).toBe(0)
    }, 30_000)

    test('a settlement the store refuses is counted as a settle failure and a store error', async () => {
      const u = await gw.user(1)
      await gw.settled()
      const before = await scrape(gw)
      const { deps } = gw.runtime
      const store = deps.store
      deps.store = { ...store, kind: store.kind, settle: () => Promise.reject(new Error('store refused')) }
      try {
        const res = await postChat(gw, u.key)
        expect(res.status).toBe(200)
        await res.text()
        await deps.inflight.settled()
      } finally {
        deps.store = store
      }
      const after = await scrape(gw)
      expect(delta(before, after, 'tollgate_settle_failures_total')).toBe(1)
      expect(delta(before, after, 'tollgate_store_errors_total', { op: 'settle' })).toBe(1)
      expect(delta(before, after, 'tollgate_store_roundtrip_seconds', { op: 'settle' })).toBe(1)
      expect(delta(before, after, 'tollgate_requests_total', { status_class: '2xx' })).toBe(1)
    }, 30_000)

    test('reservations in flight show on the gauge and the outbox gauges count unwritten records', async () => {
      const u = await gw.user(1)
      await gw.runtime.writer.stop()
      a.script({ kind: 'stall', text: fixtureSse('openai-chat', 'stream-text-usage.sse').split('\n\n').slice(0, 2).join('\n\n') + '\n\n' })
      const res = await postChat(gw, u.key, { stream: true })
      expect(res.status).toBe(200)
      const reader = res.body!.getReader()
      await reader.read()
      const during = await scrape(gw)
      expect(during.value('tollgate_open_streams')).toBe(1)
      expect(during.value('tollgate_reserved_micros')).toBeGreaterThan(0)
      await reader.cancel()
      await a.whenAborted(a.aborted + 1)
      await gw.runtime.deps.inflight.settled()
      const unwritten = await scrape(gw)
      expect(unwritten.value('tollgate_open_streams')).toBe(0)
      expect(unwritten.value('tollgate_reserved_micros')).toBe(0)
      expect(unwritten.value('tollgate_outbox_depth')).toBe(1)
      gw.runtime.writer.start()
      await gw.settled()
      expect((await scrape(gw)).value('tollgate_outbox_depth')).toBe(0)
    }, 30_000)
  })
}

describe('METRICS_TOKEN and METRICS_PORT', () => {
  const backends = { db: 'pglite', store: 'memory' } as const
  const catalog = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])

  test('with METRICS_TOKEN, /metrics wants that bearer token: none or a wrong one → 401', async () => {
    const gw = await startTestGateway(backends, catalog, { METRICS_TOKEN: TOKEN })
    try {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: TOKEN }] as Record<
        string,
        string
      >[]) {
        const res = await gw.request('/metrics', { headers })
        expect(res.status).toBe(401)
        expect(await res.text()).not.toContain('tollgate_')
      }
      const ok = await scrape(gw, { authorization: `Bearer ${TOKEN}` })
      expect(ok.kind('tollgate_requests_total')).toBe('counter')
    } finally {
      await gw.stop()
    }
  }, 30_000)

  test('with METRICS_PORT, /metrics leaves the main listener for one of its own that serves nothing else', async () => {
    const gw = await startTestGateway(backends, catalog, { METRICS_PORT: '0', METRICS_TOKEN: TOKEN })
    const { config, metrics } = gw.runtime.deps
    const server = serveMetrics(metrics, { ...config, host: '127.0.0.1' }, 0)
    try {
      expect((await gw.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
      const base = `http://127.0.0.1:${server.port}`
      expect((await fetch(`${base}/metrics`)).status).toBe(401)
      const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(res.status).toBe(200)
      expect(new Exposition(await res.text()).kind('tollgate_request_duration_seconds')).toBe('histogram')
      expect((await fetch(`${base}/v1/chat/completions`, { method: 'POST' })).status).toBe(404)
      expect((await fetch(`${base}/healthz`)).status).toBe(404)
    } finally {
      await server.stop(true)
      await gw.stop()
    }
  }, 30_000)

  test('without METRICS_TOKEN the main listener serves /metrics to anyone', async () => {
    const gw = await startTestGateway(backends, catalog)
    try {
      expect((await scrape(gw)).kind('tollgate_upstream_attempts_total')).toBe('counter')
    } finally {
      await gw.stop()
    }
  }, 30_000)
})

test('the dashboard, the alert rules and docs/observability.md name exactly the metrics that exist', async () => {
  const root = new URL('../../', import.meta.url)
  const defined = new Exposition(await new Metrics().scrape())
  const tollgate = [...defined.types.keys()].filter((n) => n.startsWith('tollgate_'))
  expect(tollgate.length).toBeGreaterThan(20)
  // A histogram is named by its _bucket/_sum/_count series in queries.
  const named = (text: string) => new Set([...text.matchAll(/\btollgate_[a-z_]+\b/g)].map((m) => m[0]))
  const exists = (n: string) => defined.types.has(n) || defined.types.get(n.replace(/_(bucket|sum|count)$/, '')) === 'histogram'
  for (const file of [
    'deploy/grafana-dashboard.json',
    'deploy/prometheus-alerts.yml',
    'deploy/prometheus-alerts.test.yml',
    'docs/observability.md',
  ]) {
    const used = named(await Bun.file(new URL(file, root)).text())
    expect(used.size).toBeGreaterThan(5)
    for (const n of used) expect({ file, metric: n, exists: exists(n) }).toEqual({ file, metric: n, exists: true })
  }
  const docs = await Bun.file(new URL('docs/observability.md', root)).text()
  for (const n of tollgate) expect({ metric: n, documented: docs.includes(`\`${n}\``) }).toEqual({ metric: n, documented: true })
  for (const n of ['process_cpu_seconds_total', 'process_resident_memory_bytes']) expect(defined.types.has(n)).toBe(true)
  // Reading these walks Bun's whole heap on the event loop (docs/observability.md "Process").
  expect([...defined.types.keys()].filter((n) => n.startsWith('nodejs_heap_space_'))).toEqual([])
})

test('configuration: bad METRICS_TOKEN, METRICS_PORT or OTEL_EXPORTER_OTLP_ENDPOINT is refused at start, naming the variable', () => {
  const bad: [Record<string, string>, string][] = [
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ PORT: '9100', METRICS_PORT: '9100' }, 'METRICS_PORT'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
  ]
  for (const [env, name] of bad) expect(() => loadConfig(env)).toThrow(new RegExp(`^${name} `))
  expect(loadConfig({})).toMatchObject({
    metricsToken: undefined,
    metricsPort: undefined,
    otlpEndpoint: undefined,
    otelServiceName: 'tollgate',
  })
  expect(
    loadConfig({
      METRICS_PORT: '9100',
      METRICS_TOKEN: TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'gw-eu',
    }),
  ).toMatchObject({
    metricsPort: 9100,
    metricsToken: TOKEN,
    otlpEndpoint: 'http://collector:4318',
    otelServiceName: 'gw-eu',
  })
})
