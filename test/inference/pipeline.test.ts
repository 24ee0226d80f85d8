// protocolCall, the one pipeline of every /v1 call (src/inference/pipeline.ts), called directly
// with a whole runtime's dependencies: what the client is answered, the one request log each
// authenticated call leaves (an admitted call settled as it ended, one refused before admission
// billed nothing), what the observer counts, and that nothing stays reserved or in flight.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type CallSocket, protocolCall } from '../../src/inference/pipeline.ts'
import { protocolSpokes } from '../../src/protocols/registry.ts'
import { completionWithUsage, logOf, reservedOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'
import { bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks } from '../helpers/money.ts'
import { Exposition } from '../helpers/prometheus.ts'

const CREDIT = 1_000_000n // 1 USD in micro-USD
const PROMPT = [{ role: 'user', content: 'Say hello' }]

describe('protocolCall', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let spokes: ReturnType<typeof protocolSpokes>
  beforeAll(async () => {
    // 5 prompt + 100 completion tokens at 0.15 / 0.6 USD per 1M → 60.75 → 61 micro-USD.
    up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
    // A window of 2,000 tokens: a prompt of 60,000 characters cannot fit it.
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: up.url }], { contextWindow: 2_000 }))
    spokes = protocolSpokes(gw.runtime.deps.config)
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  const deps = () => gw.runtime.deps
  const post = (path: string, key: string | null, body: unknown) =>
    new Request(`http://tollgate.test${path}`, {
      method: 'POST',
      headers: key ? bearer(key) : { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const chat = (key: string | null, body: Record<string, unknown> = {}) =>
    post('/v1/chat/completions', key, { model: 'acme/chat-1', messages: PROMPT, ...body })
  const lifted = () => {
    const socket = { streams: 0, clientIp: () => '203.0.113.7', onStream: () => void socket.streams++ }
    return socket satisfies CallSocket
  }
  const scrape = async () => new Exposition(await deps().metrics.scrape())
  /** After the call's settlement reached Postgres: its log row, and nothing held for the user. */
  async function settledLog(userId: string, requestId: string) {
    await gw.settled()
    expect(await reservedOf(gw, userId)).toBe(0n)
    expect(deps().inflight.calls).toBe(0)
    return logOf(gw, requestId)
  }

  test('a JSON call: answered with its request id and rate headers, billed once at the rule’s value', async () => {
    const u = await gw.user(1, { rpm: 10 })
    const socket = lifted()
    const res = await protocolCall(deps(), spokes.chat, chat(u.key), socket)
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    expect(id).toMatch(/^req_/)
    expect(res.headers.get('ratelimit-limit')).toBe('10')
    expect(res.headers.get('ratelimit-remaining')).toBe('9')
    expect(res.headers.get('x-model')).toBe('acme/chat-1')
    expect(socket.streams).toBe(0)
    const body = (await res.json()) as { usage: { prompt_tokens: number }; svc: { cost: string } }
    expect(body.usage.prompt_tokens).toBe(5)
    const log = await settledLog(u.userId, id)
    expect([log.status, log.errorCode, log.gateway, log.costMicros, log.usageSource]).toEqual([200, null, 'gw-a', 61n, 'upstream'])
    await expectExactBooks(gw, u.userId, CREDIT, [{ requestId: id, cost: 61n }])
  })

  test('a stream: the socket is told it is long-lived, and the call is billed when the stream ends', async () => {
    const u = await gw.user(1)
    up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse') })
    const socket = lifted()
    const res = await protocolCall(deps(), spokes.chat, chat(u.key, { stream: true }), socket)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    expect(socket.streams).toBe(1)
    expect(await res.text()).toContain('[DONE]')
    const id = res.headers.get('x-request-id')!
    // stream-text-usage.sse: 16 + 10 tokens → 2.4 + 6 = 8.4 → 9 micro-USD.
    const log = await settledLog(u.userId, id)
    expect([log.status, log.stream, log.costMicros, log.usageSource]).toEqual([200, true, 9n, 'upstream'])
    await expectExactBooks(gw, u.userId, CREDIT, [{ requestId: id, cost: 9n }])
  })

  test('no key: the envelope’s 401, no log row, the observer counts it', async () => {
    const before = (await scrape()).value('tollgate_requests_total', { protocol: 'chat', code: 'UNAUTHORIZED' }) ?? 0
    const res = await protocolCall(deps(), spokes.chat, chat(null))
    expect(res.status).toBe(401)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED')
    await gw.settled()
    const rows = await deps().db.query.requestLogs.findMany({ where: (l, { eq }) => eq(l.id, res.headers.get('x-request-id')!) })
    expect(rows).toEqual([])
    expect((await scrape()).value('tollgate_requests_total', { protocol: 'chat', code: 'UNAUTHORIZED' })).toBe(before + 1)
  })

  test('refused before admission: the protocol’s envelope, one log row of the name asked, billed nothing', async () => {
    const u = await gw.user(1)
    const res = await protocolCall(
      deps(),
      spokes.messages,
      post('/v1/messages', u.key, { model: 'nope/none', max_tokens: 5, messages: PROMPT }),
    )
    // Messages answers an unknown model 404; the log keeps the canonical status (docs/api.md "Status and code table").
    expect(res.status).toBe(404)
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('not_found_error')
    const log = await settledLog(u.userId, res.headers.get('x-request-id')!)
    expect([log.model, log.protocol, log.status, log.errorCode, log.gateway]).toEqual([
      'nope/none',
      'messages',
      503,
      'MODEL_NOT_FOUND',
      null,
    ])
    expect([log.inputTokens, log.outputTokens, log.costMicros, log.usageSource, log.fault]).toEqual([0, 0, 0n, 'none', null])
    // The observer counts what the client was answered.
    const e = await scrape()
    expect(
      e.value('tollgate_requests_total', { protocol: 'messages', model: 'unknown', status_class: '4xx', code: 'MODEL_NOT_FOUND' }),
    ).toBe(1)
    await expectExactBooks(gw, u.userId, CREDIT, [])
  })

  test('a prompt no candidate’s window fits is refused before admission, its stream flag logged', async () => {
    const u = await gw.user(1)
    const long = [{ role: 'user', content: 'x'.repeat(60_000) }]
    const res = await protocolCall(deps(), spokes.chat, chat(u.key, { messages: long, stream: true }))
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('CONTEXT_LENGTH_EXCEEDED')
    const log = await settledLog(u.userId, res.headers.get('x-request-id')!)
    expect([log.model, log.stream, log.status, log.errorCode, log.costMicros]).toEqual([
      'acme/chat-1',
      true,
      400,
      'CONTEXT_LENGTH_EXCEEDED',
      0n,
    ])
    await expectExactBooks(gw, u.userId, CREDIT, [])
  })

  test('refused at admission (no credit): 402, its log row, nothing reserved and no call left in flight', async () => {
    const u = await gw.user(0)
    const seen = up.seen.length
    const res = await protocolCall(deps(), spokes.chat, chat(u.key))
    expect(res.status).toBe(402)
    const log = await settledLog(u.userId, res.headers.get('x-request-id')!)
    expect([log.status, log.errorCode, log.costMicros, log.usageSource]).toEqual([402, 'PAYMENT_REQUIRED', 0n, 'none'])
    expect(up.seen.length).toBe(seen)
    await expectExactBooks(gw, u.userId, 0n, [])
  })

  test('admitted, then the upstream fails before the first byte: 502, settled as it ended, the reservation released', async () => {
    const u = await gw.user(1)
    up.script({ kind: 'status', status: 500, body: { error: { message: 'fake upstream failure' } } })
    const res = await protocolCall(deps(), spokes.chat, chat(u.key))
    expect(res.status).toBe(502)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UPSTREAM_ERROR')
    const log = await settledLog(u.userId, res.headers.get('x-request-id')!)
    expect([log.status, log.errorCode, log.fault, log.costMicros, log.usageSource]).toEqual([502, 'UPSTREAM_ERROR', 'upstream', 0n, 'none'])
    expect(deps().metrics.reservedMicros).toBe(0)
    await expectExactBooks(gw, u.userId, CREDIT, [])
  })

  test('the client goes away while its body is read: logged as the client’s end, no fault, nothing billed', async () => {
    const u = await gw.user(1)
    const errorsBefore = (await scrape()).value('tollgate_errors_total') ?? 0
    const gone = new AbortController()
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"model":"acme/chat-1","messages":[{"role":"user","content":"Say'))
        // The socket closing fails the body's read, as the server does when a client disconnects.
        gone.signal.addEventListener('abort', () => c.error(new Error('socket closed')))
      },
    })
    const req = new Request('http://tollgate.test/v1/chat/completions', {
      method: 'POST',
      headers: bearer(u.key),
      body,
      signal: gone.signal,
    })
    const pending = protocolCall(deps(), spokes.chat, req)
    setTimeout(() => gone.abort(), 20)
    const res = await pending
    const log = await settledLog(u.userId, res.headers.get('x-request-id')!)
    expect([log.status, log.errorCode, log.fault, log.costMicros]).toEqual([499, 'CLIENT_CLOSED', null, 0n])
    expect((await scrape()).value('tollgate_errors_total') ?? 0).toBe(errorsBefore)
    await expectExactBooks(gw, u.userId, CREDIT, [])
  })
})
