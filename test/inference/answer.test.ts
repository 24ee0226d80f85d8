// The answer step of a call (src/inference/answer.ts) on a whole runtime: closeCall settles a call
// once as it ended — an admitted one through its lease, one refused before admission with its
// record alone — and tells an admitted call's observer what was settled; jsonAnswer and
// streamAnswer answer in the client's protocol with svc read from that settlement.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { NOTHING_DELIVERED, ZERO_USAGE } from '../../src/billing/bill.ts'
import type { RefusedCall } from '../../src/billing/settlement.ts'
import type { CatalogModel } from '../../src/catalog/catalog.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { admit, type Call } from '../../src/inference/admission.ts'
import { type Answering, closeCall, jsonAnswer, streamAnswer } from '../../src/inference/answer.ts'
import { CallLife } from '../../src/inference/call-life.ts'
import { planCall } from '../../src/inference/call-plan.ts'
import { callUpstream, type ServedJson, type ServedStream } from '../../src/inference/upstream-call.ts'
import { newRequestId } from '../../src/lib/ids.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { CallObserver } from '../../src/observability/call-observer.ts'
import { Metrics } from '../../src/observability/telemetry.ts'
import { noopTracer } from '../../src/observability/tracing.ts'
import { chatSpoke } from '../../src/protocols/chat/index.ts'
import { completionWithUsage, logOf, reservedOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks } from '../helpers/money.ts'
import { Exposition } from '../helpers/prometheus.ts'

const CREDIT = 1_000_000n // 1 USD in micro-USD
const PROMPT = [{ role: 'user', content: 'Say hello' }]

describe('the answer step', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let model: CatalogModel
  beforeAll(async () => {
    // 5 prompt + 100 completion tokens at 0.15 / 0.6 USD per 1M → 60.75 → 61 micro-USD.
    up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    const found = gw.runtime.deps.catalog.lookup('acme/chat-1')
    if (!found.ok) throw new Error('the test catalog lost its model')
    model = found.model
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  const deps = () => gw.runtime.deps

  /** A chat call of `key` admitted for real (reservation and lease in the store), with an observer of its own. */
  async function admitted(key: string, stream = false) {
    const principal = (await deps().auth.verify(key))!
    const requestId = newRequestId('req')
    const metrics = new Metrics({ processMetrics: false })
    const t0 = performance.now()
    const obs = new CallObserver(metrics, noopTracer, silentLogger, 'chat', new Headers(), requestId, t0)
    obs.resolved(model.id, model.provider, stream)
    const life = new CallLife(new AbortController().signal, deps().inflight.cut)
    const plan = planCall([model], { promptChars: 30, maxTokens: 50, choices: 1 }, 4_096)
    const { estimate, reserveMicros } = plan.admitted
    const call = await admit(deps(), {
      requestId,
      protocol: 'chat',
      stream,
      principal,
      model,
      estimate,
      reserveMicros,
      t0,
      at: Date.now(),
      obs,
      life,
    })
    const scrape = async () => new Exposition(await metrics.scrape())
    return { call, metrics, scrape }
  }

  /** The upstream's answer to `call`, as the pipeline hands it to the answer step. */
  async function served(call: Call) {
    const raw = { model: model.id, messages: PROMPT, ...(call.stream ? { stream: true } : {}) }
    const r = { spoke: chatSpoke, raw, body: chatSpoke.parse(raw), stream: call.stream, model, requestId: call.requestId }
    return callUpstream(deps(), { ...r, passHeaders: {}, life: call.life, obs: call.obs, tokens: 100, keyId: call.principal.keyId })
  }

  const answering = (call: Call): Answering<unknown> => ({
    spoke: chatSpoke as Answering<unknown>['spoke'],
    call,
    ctx: { requestId: call.requestId, publicId: call.requestId, slug: model.id, created: 1, serviceMode: 'standard' },
    headers: { 'x-request-id': call.requestId },
  })

  test('closeCall settles an admitted call once at the rule’s value and tells its observer once', async () => {
    const u = await gw.user(1)
    const { call, metrics, scrape } = await admitted(u.key)
    expect(metrics.reservedMicros).toBe(Number(call.reservedMicros))
    const reported = { usage: { ...ZERO_USAGE, inputTokens: 5, outputTokens: 100 }, final: true }
    const tally = { reported, started: true, deliveredChars: 400 }
    const settled = closeCall(deps(), call, { kind: 'completed' }, tally, 'gw-a')!
    expect([settled.costMicros, settled.usageSource, settled.status, settled.gateway]).toEqual([61n, 'upstream', 200, 'gw-a'])
    expect(closeCall(deps(), call, { kind: 'client_left' }, NOTHING_DELIVERED, null)).toBeUndefined()
    expect((await settled.trip).outcome).toBe('applied')
    const e = await scrape()
    expect(e.value('tollgate_requests_total')).toBe(1)
    expect(e.value('tollgate_requests_total', { model: model.id, status_class: '2xx', code: 'none' })).toBe(1)
    expect(e.value('tollgate_cost_micros_total', { model: model.id })).toBe(61)
    expect(metrics.reservedMicros).toBe(0)
    await gw.settled()
    expect(await reservedOf(gw, u.userId)).toBe(0n)
    expect((await logOf(gw, call.requestId)).status).toBe(200)
    await expectExactBooks(gw, u.userId, CREDIT, [{ requestId: call.requestId, cost: 61n }])
  })

  test('closeCall of a call whose client left before any byte: the prompt estimate, logged 499, observed as such', async () => {
    const u = await gw.user(1)
    const { call, scrape } = await admitted(u.key)
    const settled = closeCall(deps(), call, { kind: 'client_left' }, NOTHING_DELIVERED, null)!
    // Prompt estimate: 30 characters ÷ 3 = 10 tokens at 0.15 USD per 1M → 1.5 → 2 micro-USD; no output.
    expect([settled.usage.inputTokens, settled.usage.outputTokens, settled.usageSource]).toEqual([10, 0, 'estimate'])
    expect([settled.status, settled.errorCode, settled.fault]).toEqual([499, 'CLIENT_CLOSED', null])
    expect((await scrape()).value('tollgate_requests_total', { status_class: '4xx', code: 'CLIENT_CLOSED' })).toBe(1)
    await gw.settled()
    await expectExactBooks(gw, u.userId, CREDIT, [{ requestId: call.requestId, cost: settled.costMicros }])
    expect(settled.costMicros).toBe(2n)
  })

  test('closeCall of a call refused before admission: its record alone, billed nothing, nothing to observe', async () => {
    const u = await gw.user(1)
    const principal = (await deps().auth.verify(u.key))!
    const refused: RefusedCall = {
      requestId: newRequestId('req'),
      principal,
      model: { id: 'asked/model' },
      protocol: 'chat',
      stream: true,
      estimate: ZERO_USAGE,
      t0: performance.now(),
      at: Date.now(),
      settled: false,
    }
    const calls = deps().inflight.calls
    const error = new GatewayError('VALIDATION_FAILED', 'bad body')
    expect(closeCall(deps(), refused, { kind: 'refused', error }, NOTHING_DELIVERED, null)).toBeUndefined()
    expect(refused.settled).toBe(true)
    // Never admitted: no call in flight to count off.
    expect(deps().inflight.calls).toBe(calls)
    await gw.settled()
    const log = await logOf(gw, refused.requestId)
    expect([log.model, log.stream, log.status, log.errorCode, log.costMicros, log.usageSource]).toEqual([
      'asked/model',
      true,
      422,
      'VALIDATION_FAILED',
      0n,
      'none',
    ])
    await expectExactBooks(gw, u.userId, CREDIT, [])
  })

  test('jsonAnswer: the upstream’s answer with svc from what was settled, on the call’s own headers', async () => {
    const u = await gw.user(1)
    const { call, scrape } = await admitted(u.key)
    const a = answering(call)
    const res = jsonAnswer(deps(), a, (await served(call)) as ServedJson)
    expect(res.status).toBe(200)
    expect([res.headers.get('content-type'), res.headers.get('x-model'), res.headers.get('x-request-id')]).toEqual([
      'application/json',
      model.id,
      call.requestId,
    ])
    expect(a.headers['content-type']).toBe('application/json')
    const body = (await res.json()) as { model: string; usage: { completion_tokens: number }; svc: Record<string, unknown> }
    expect(body.model).toBe(model.id)
    expect(body.usage.completion_tokens).toBe(100)
    expect(body.svc).toMatchObject({ cost: 0.000061, gateway: 'gw-a', usageSource: 'upstream' })
    expect(call.settled).toBe(true)
    expect((await scrape()).value('tollgate_requests_total', { status_class: '2xx' })).toBe(1)
    await gw.settled()
    await expectExactBooks(gw, u.userId, CREDIT, [{ requestId: call.requestId, cost: 61n }])
  })

  test('jsonAnswer after the client left while the answer was read: the upstream’s count still billed, logged 499', async () => {
    const u = await gw.user(1)
    const { call } = await admitted(u.key)
    const answer = (await served(call)) as ServedJson
    call.life.end({ kind: 'client_left' })
    const res = jsonAnswer(deps(), answering(call), answer)
    expect(((await res.json()) as { svc: { cost: number } }).svc.cost).toBe(0.000061)
    await gw.settled()
    const log = await logOf(gw, call.requestId)
    expect([log.status, log.errorCode, log.costMicros, log.usageSource]).toEqual([499, 'CLIENT_CLOSED', 61n, 'upstream'])
    await expectExactBooks(gw, u.userId, CREDIT, [{ requestId: call.requestId, cost: 61n }])
  })

  test('streamAnswer: SSE in the client’s protocol, settled when the stream ends, nothing left open', async () => {
    const u = await gw.user(1)
    up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse') })
    const { call, scrape } = await admitted(u.key, true)
    const streams = deps().inflight.streams
    const res = streamAnswer(deps(), answering(call), (await served(call)) as ServedStream)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    expect(res.headers.get('x-request-id')).toBe(call.requestId)
    expect(deps().inflight.streams).toBe(streams + 1)
    const text = await res.text()
    expect(text).toContain('[DONE]')
    // The closing frames carry svc, read from the settlement (16 + 10 tokens → 8.4 → 9 micro-USD).
    expect(text).toContain('"cost":0.00000900')
    expect(deps().inflight.streams).toBe(streams)
    expect(call.settled).toBe(true)
    expect((await scrape()).value('tollgate_requests_total', { status_class: '2xx' })).toBe(1)
    await gw.settled()
    expect(await reservedOf(gw, u.userId)).toBe(0n)
    await expectExactBooks(gw, u.userId, CREDIT, [{ requestId: call.requestId, cost: 9n }])
  })
})
