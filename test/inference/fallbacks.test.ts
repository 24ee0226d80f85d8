// docs/failover.md "Model fallbacks": a model's catalog `fallbacks` and a request's `models` on
// all three protocols, JSON and stream — after its routes fail, after a context-length refusal
// (only a larger window), with its breaker open. The answer names the model that answered, svc
// says so, the bill is at that model's price and the request log carries its slug.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { logOf, reservedOf } from '../helpers/chat.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { bearer, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const JSON_ANSWER = fixtureJson('openai-chat', 'json-text.json') // 16 in, 363 out
const SSE_ANSWER = fixtureSse('openai-chat', 'stream-text-usage.sse') // 16 in, 10 out
/** acme/big is priced 3 / 6 USD per 1M tokens. */
const BIG_COST = { json: 16n * 3n + 363n * 6n, stream: 16n * 3n + 10n * 6n }
const TOO_LONG = { error: { message: "This model's maximum context length is 8000 tokens", code: 'context_length_exceeded' } }

const answering = (): FakeUpstream =>
  startFakeUpstream({
    kind: 'fn',
    handle: (_req, body) =>
      body.stream ? new Response(SSE_ANSWER, { headers: { 'content-type': 'text/event-stream' } }) : Response.json(JSON_ANSWER),
  })

const PROTOCOLS = {
  chat: { path: '/v1/chat/completions', body: { messages: [{ role: 'user', content: 'hi' }] } },
  messages: { path: '/v1/messages', body: { max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] } },
  responses: { path: '/v1/responses', body: { input: 'hi' } },
} as const

describe('model fallbacks', () => {
  let primary: FakeUpstream
  let big: FakeUpstream
  let small: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    primary = startFakeUpstream({ kind: 'status', status: 500 })
    big = answering()
    small = answering()
    const gateway = (id: string, up: FakeUpstream, policy = {}) => ({
      id,
      protocol: 'openai-chat' as const,
      baseUrl: `${up.url}/v1`,
      apiKey: 'sk-up',
      timeoutMs: 2_000,
      policy: { retries: 0, breaker: { enabled: false }, ...policy },
    })
    const model = (id: string, gateway: string, contextWindow: number, input: number, output: number, fallbacks?: string[]) => ({
      id,
      name: id,
      provider: 'acme',
      contextWindow,
      capabilities: ['text', 'streaming'],
      pricing: { input, output },
      routes: [{ gateway, model: `up-${id}` }],
      ...(fallbacks ? { fallbacks } : {}),
    })
    const catalog: CatalogFile = {
      gateways: [
        gateway('p', primary),
        gateway('f', big),
        gateway('s', small),
        gateway('breaky', primary, { breaker: { enabled: true, failures: 1, cooldownMs: 600_000 } }),
      ],
      models: [
        model('acme/primary', 'p', 8_000, 1, 2, ['acme/big']),
        model('acme/big', 'f', 200_000, 3, 6),
        model('acme/small', 's', 4_000, 0.5, 1),
        model('acme/breaky', 'breaky', 8_000, 1, 2, ['acme/big']),
      ],
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    for (const u of [primary, big, small]) u.stop()
  }, 30_000)

  async function call(protocol: keyof typeof PROTOCOLS, body: Record<string, unknown>) {
    const u = await gw.user(1, { rpm: 1_000 })
    const p = PROTOCOLS[protocol]
    const res = await gw.request(p.path, { method: 'POST', headers: bearer(u.key), body: JSON.stringify({ ...p.body, ...body }) })
    return { u, res, text: await res.text(), id: res.headers.get('x-request-id')! }
  }

  /** Served by acme/big, said so in the answer and its svc, billed and logged at its price. */
  async function expectServedByBig(c: Awaited<ReturnType<typeof call>>, stream: boolean, requested: string, chain: string) {
    expect(c.res.status).toBe(200)
    if (stream) {
      expect(c.text).toContain('"model":"acme/big"')
      expect(c.text).toContain(`"requestedModel":"${requested}"`)
    } else {
      const json = JSON.parse(c.text)
      expect(json.model).toBe('acme/big')
      expect(json.svc).toMatchObject({ model: 'acme/big', requestedModel: requested })
    }
    await gw.settled()
    const log = await logOf(gw, c.id)
    expect(log.model).toBe('acme/big')
    expect(log.models).toBe(chain)
    expect(log.gateway).toBe('f')
    expect(log.costMicros).toBe(stream ? BIG_COST.stream : BIG_COST.json)
    expect(await reservedOf(gw, c.u.userId)).toBe(0n)
    expect(await gw.books(c.u.userId)).toEqual({ balance: 1_000_000n - log.costMicros, ledgerSum: 1_000_000n - log.costMicros })
  }

  for (const protocol of Object.keys(PROTOCOLS) as (keyof typeof PROTOCOLS)[])
    for (const stream of [false, true]) {
      test(`${protocol} ${stream ? 'stream' : 'JSON'}: every route of the model fails → its catalog fallback answers`, async () => {
        const before = big.seen.length
        const c = await call(protocol, { model: 'acme/primary', stream })
        await expectServedByBig(c, stream, 'acme/primary', 'acme/primary,acme/big')
        expect(big.seen[before]!.body.model).toBe('up-acme/big')
      })

      test(`${protocol} ${stream ? 'stream' : 'JSON'}: a context-length refusal skips a smaller window for a larger one`, async () => {
        primary.script({ kind: 'status', status: 400, body: TOO_LONG })
        const smallBefore = small.seen.length
        const c = await call(protocol, { model: 'acme/primary', models: ['acme/small', 'acme/big'], stream })
        await expectServedByBig(c, stream, 'acme/primary', 'acme/primary,acme/small,acme/big')
        expect(small.seen.length).toBe(smallBefore)
      })
    }

  test('breaker open: the model is not asked, its fallback answers at once', async () => {
    await expectServedByBig(await call('chat', { model: 'acme/breaky' }), false, 'acme/breaky', 'acme/breaky,acme/big')
    const before = primary.seen.length
    await expectServedByBig(await call('messages', { model: 'acme/breaky' }), false, 'acme/breaky', 'acme/breaky,acme/big')
    expect(primary.seen.length).toBe(before)
  })

  test('`models` without `model`: the first listed is asked first, and `models` never reaches the upstream', async () => {
    const before = small.seen.length
    const c = await call('responses', { models: ['acme/small', 'acme/big'] })
    expect(c.res.status).toBe(200)
    expect(JSON.parse(c.text).model).toBe('acme/small')
    expect(JSON.parse(c.text).svc.requestedModel).toBeUndefined()
    expect(small.seen[before]!.body.models).toBeUndefined()
    await gw.settled()
    expect((await logOf(gw, c.id)).models).toBe('acme/small,acme/big')
    const single = await call('chat', { model: 'acme/big' })
    await gw.settled()
    expect((await logOf(gw, single.id)).models).toBeNull()
  })

  test('a request list replaces the catalog fallbacks: with only the failing model listed, the call fails', async () => {
    const c = await call('chat', { model: 'acme/primary', models: ['acme/primary'] })
    expect(c.res.status).toBe(502)
  })

  test('a malformed `models` is the protocol 422/400 and asks no upstream; an unknown slug in it is not-found', async () => {
    const seen = big.seen.length + primary.seen.length
    const bad = await call('chat', { model: 'acme/primary', models: 'acme/big' })
    expect(bad.res.status).toBe(422)
    expect(JSON.parse(bad.text).error.param).toBe('models')
    const unknown = await call('messages', { model: 'acme/primary', models: ['acme/nope'] })
    expect(unknown.res.status).toBe(404)
    expect(big.seen.length + primary.seen.length).toBe(seen)
  })

  test('a prompt too long for the first model goes to the one whose window fits, without asking the first', async () => {
    const before = primary.seen.length
    const c = await call('chat', { model: 'acme/small', models: ['acme/big'], messages: [{ role: 'user', content: 'x'.repeat(60_000) }] })
    expect(c.res.status).toBe(200)
    expect(JSON.parse(c.text).model).toBe('acme/big')
    expect(primary.seen.length).toBe(before)
  })
})
