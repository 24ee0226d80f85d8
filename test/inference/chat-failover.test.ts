// Failover before the first byte (docs/failover.md "Failure → behaviour"): a 5xx, timeout, reset or
// refused connection on one gateway is retried on the next, and the answer names the gateway
// that served it; when every gateway fails the client gets 502 UPSTREAM_ERROR; a request the
// upstream refuses is not retried. No error ever shows the upstream's host, model name, key or
// text, and a failed call releases its reservation and bills nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectChatError, expectNoUpstreamIdentity, logOf, postChat, reservedOf, sseFrames } from '../helpers/chat.ts'
import { startBrokenUpstream, type BrokenUpstream } from '../helpers/broken-upstream.ts'
import { startFakeUpstream, type Behaviour, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

const LEAKY_ERROR = {
  error: {
    message: 'upstream-secret-model is overloaded at http://upstream.example.internal (key sk-upstream-secret); contact support@provider',
    type: 'server_error',
  },
}

// Failures of gw-a that move the call to gw-b.
const RETRIED: [string, Behaviour][] = [
  ['500', { kind: 'status', status: 500, body: LEAKY_ERROR }],
  ['502', { kind: 'status', status: 502 }],
  ['503', { kind: 'status', status: 503, body: LEAKY_ERROR }],
  ['504', { kind: 'status', status: 504 }],
  [
    '429 (the gateway’s own quota)',
    { kind: 'status', status: 429, body: fixtureJson('openai-chat', 'error-429-openrouter-rate-limited.json') },
  ],
  ['401 (the gateway’s key refused)', { kind: 'status', status: 401, body: fixtureJson('openai-chat', 'error-401-invalid-api-key.json') }],
  ['timeout (no answer within timeoutMs)', { kind: 'hang' }],
  ['an unreadable body', { kind: 'json', body: '{"id": "chatcmpl-1", "choi' }],
  ['a JSON body that is not an object', { kind: 'json', body: '[]' }],
]

for (const backends of ALL_BACKENDS) {
  describe(`chat failover on ${backends.db}+${backends.store}`, () => {
    let a: FakeUpstream
    let b: FakeUpstream
    let reset: BrokenUpstream
    let garbage: BrokenUpstream
    let deadUrl: string
    let gw: TestGateway
    beforeAll(async () => {
      a = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      b = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      reset = startBrokenUpstream('reset')
      garbage = startBrokenUpstream('garbage')
      const dead = startFakeUpstream()
      deadUrl = dead.url
      dead.stop()
      const catalog: CatalogFile = simpleCatalog([
        { id: 'gw-a', url: a.url, timeoutMs: 250 },
        { id: 'gw-b', url: b.url, timeoutMs: 10_000 },
        { id: 'gw-reset', url: reset.url },
        { id: 'gw-garbage', url: garbage.url },
        { id: 'gw-dead', url: deadUrl },
      ])
      const base = catalog.models[0]!
      const route = (gateway: string, model = `upstream-secret-model-${gateway}`) => ({ gateway, model })
      catalog.models = [
        { ...base, routes: [route('gw-a', 'upstream-secret-model'), route('gw-b')] },
        { ...base, id: 'acme/reset-first', routes: [route('gw-reset'), route('gw-b')] },
        { ...base, id: 'acme/garbage-first', routes: [route('gw-garbage'), route('gw-b')] },
        { ...base, id: 'acme/dead-first', routes: [route('gw-dead'), route('gw-b')] },
        { ...base, id: 'acme/third-serves', routes: [route('gw-dead'), route('gw-a'), route('gw-reset'), route('gw-b')] },
        { ...base, id: 'acme/all-broken', routes: [route('gw-dead'), route('gw-reset'), route('gw-garbage'), route('gw-a')] },
        { ...base, id: 'acme/a-only', routes: [route('gw-a')] },
      ]
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      for (const s of [a, b, reset, garbage]) s.stop()
    })

    const hosts = () => [a.url, b.url, reset.url, garbage.url, deadUrl].map((u) => new URL(u).host)

    /** Served by gw-b after gw-a failed: public model, billed once from gw-b's usage. */
    async function expectServedByB(res: Response, u: { userId: string }, slug: string) {
      expect(res.status).toBe(200)
      const text = await res.text()
      const body = JSON.parse(text)
      expect(body.svc.gateway).toBe('gw-b')
      expect(body.model).toBe(slug)
      expect(res.headers.get('x-model')).toBe(slug)
      expect(b.seen.at(-1)!.body.model).toBe('upstream-secret-model-gw-b')
      expectNoUpstreamIdentity(text, res.headers, hosts())
      await gw.settled()
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n - 221n, ledgerSum: 1_000_000n - 221n })
      const log = await logOf(gw, res.headers.get('x-request-id')!)
      expect(log).toMatchObject({ status: 200, gateway: 'gw-b', costMicros: 221n, errorCode: null })
    }

    for (const [name, behaviour] of RETRIED) {
      test(`${name} on gw-a → served by gw-b, svc.gateway = 'gw-b'`, async () => {
        const u = await gw.user(1)
        const seenA = a.seen.length
        const seenB = b.seen.length
        a.script(behaviour)
        await expectServedByB(await postChat(gw, u.key), u, 'acme/chat-1')
        expect(a.seen.length).toBe(seenA + 1)
        expect(b.seen.length).toBe(seenB + 1)
        expect(a.seen.at(-1)!.body.model).toBe('upstream-secret-model')
      })
    }

    for (const [name, model, server] of [
      ['connection reset', 'acme/reset-first', () => reset],
      ['bytes that are not HTTP', 'acme/garbage-first', () => garbage],
      ['connection refused', 'acme/dead-first', () => undefined],
    ] as const) {
      test(`${name} on the first gateway → the next one serves`, async () => {
        const u = await gw.user(1)
        const tried = server()?.requests ?? 0
        await expectServedByB(await postChat(gw, u.key, { model }), u, model)
        if (server()) expect(server()!.requests).toBeGreaterThan(tried)
      })
    }

    test('routes are tried in order until one serves: refused, 500, reset, then gw-b', async () => {
      const u = await gw.user(1)
      const tried = reset.requests
      a.script({ kind: 'status', status: 500 })
      await expectServedByB(await postChat(gw, u.key, { model: 'acme/third-serves' }), u, 'acme/third-serves')
      expect(a.seen.at(-1)!.body.model).toBe('upstream-secret-model-gw-a')
      expect(reset.requests).toBeGreaterThan(tried)
    })

    test('a stream fails over before its first byte: 503 or timeout on gw-a → gw-b streams to [DONE]', async () => {
      for (const behaviour of [{ kind: 'status', status: 503, body: LEAKY_ERROR }, { kind: 'hang' }] as Behaviour[]) {
        const u = await gw.user(1)
        a.script(behaviour)
        b.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 211 })
        const res = await postChat(gw, u.key, { stream: true })
        expect(res.status).toBe(200)
        const text = await res.text()
        const frames = sseFrames(text)
        expect(frames.at(-1)).toBe('data: [DONE]')
        expect(JSON.parse(frames.at(-2)!.slice(6)).svc).toMatchObject({ gateway: 'gw-b', usageSource: 'upstream' })
        expect(text).not.toContain('"error"')
        expectNoUpstreamIdentity(text, res.headers, hosts())
        expect(b.seen.at(-1)!.body).toMatchObject({
          model: 'upstream-secret-model-gw-b',
          stream: true,
          stream_options: { include_usage: true },
        })
        await gw.settled()
        expect(await logOf(gw, res.headers.get('x-request-id')!)).toMatchObject({ status: 200, gateway: 'gw-b', stream: true })
      }
    })

    test('every gateway failing → 502 UPSTREAM_ERROR without upstream detail; reservation released, nothing billed', async () => {
      const cases: { model: string; stream: boolean; script: () => void }[] = [
        {
          model: 'acme/chat-1',
          stream: false,
          script: () => (
            a.script({ kind: 'status', status: 500, body: LEAKY_ERROR }), b.script({ kind: 'status', status: 503, body: LEAKY_ERROR })
          ),
        },
        {
          model: 'acme/chat-1',
          stream: true,
          script: () => (a.script({ kind: 'hang' }), b.script({ kind: 'status', status: 502, body: LEAKY_ERROR })),
        },
        { model: 'acme/all-broken', stream: false, script: () => a.script({ kind: 'status', status: 500, body: LEAKY_ERROR }) },
        { model: 'acme/a-only', stream: false, script: () => a.script({ kind: 'hang' }) },
        { model: 'acme/a-only', stream: true, script: () => a.script({ kind: 'reset' }) },
      ]
      for (const c of cases) {
        const u = await gw.user(1)
        c.script()
        const res = await postChat(gw, u.key, { model: c.model, stream: c.stream })
        const raw = await res.clone().text()
        const error = await expectChatError(res, 502, 'UPSTREAM_ERROR')
        expect(Object.keys(error).sort()).toEqual(['code', 'message'])
        expectNoUpstreamIdentity(raw, res.headers, [...hosts(), 'overloaded', 'support@provider', 'server_error', 'gw-a', 'gw-b'])
        // The settlement releases the reservation; it is sent after the answer (store/turn-batch.ts).
        await gw.settled()
        expect(await reservedOf(gw, u.userId)).toBe(0n)
        expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
        const log = await logOf(gw, res.headers.get('x-request-id')!)
        expect(log).toMatchObject({
          status: 502,
          errorCode: 'UPSTREAM_ERROR',
          costMicros: 0n,
          inputTokens: 0,
          outputTokens: 0,
          model: c.model,
          stream: c.stream,
        })
      }
    })

    test('an upstream 400/413/422 is the request’s fault: not retried, 400 BAD_REQUEST without the upstream’s text, nothing billed', async () => {
      for (const behaviour of [
        { kind: 'status', status: 400, body: fixtureJson('openai-chat', 'error-400-unsupported-parameter.json') },
        { kind: 'status', status: 413, body: LEAKY_ERROR },
        { kind: 'status', status: 422, body: LEAKY_ERROR },
      ] as Behaviour[]) {
        const u = await gw.user(1)
        const seenB = b.seen.length
        a.script(behaviour)
        const res = await postChat(gw, u.key)
        const raw = await res.clone().text()
        await expectChatError(res, 400, 'BAD_REQUEST')
        expect(b.seen.length).toBe(seenB)
        expectNoUpstreamIdentity(raw, res.headers, [
          ...hosts(),
          'Unsupported parameter',
          'max_tokens',
          'max_completion_tokens',
          'unsupported_parameter',
          'invalid_request_error',
          'overloaded',
        ])
        // The settlement releases the reservation; it is sent after the answer (store/turn-batch.ts).
        await gw.settled()
        expect(await reservedOf(gw, u.userId)).toBe(0n)
        expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
        expect(await logOf(gw, res.headers.get('x-request-id')!)).toMatchObject({ status: 400, costMicros: 0n })
      }
    })
  })
}
