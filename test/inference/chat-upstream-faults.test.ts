// Failover before the first byte, failures after it, and clients that go away — with what each
// is billed, and that no upstream identity reaches the client.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

const SECRETS = ['upstream-secret-model', 'sk-upstream-secret', '127.0.0.1', 'upstream.example.internal', 'gpt-4o', 'openrouter', 'minimax']

function expectNoUpstreamIdentity(text: string, headers: Headers) {
  const all = (text + JSON.stringify([...headers.entries()])).toLowerCase()
  for (const s of SECRETS) expect(all).not.toContain(s.toLowerCase())
}

for (const backends of ALL_BACKENDS) {
  describe(`upstream faults on ${backends.db}+${backends.store}`, () => {
    let a: FakeUpstream
    let b: FakeUpstream
    let gw: TestGateway
    let deadPort: number
    beforeAll(async () => {
      a = startFakeUpstream()
      b = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      const dead = startFakeUpstream()
      deadPort = dead.port
      dead.stop()
      const catalog = simpleCatalog([
        { id: 'gw-a', url: a.url, timeoutMs: 300 },
        { id: 'gw-b', url: b.url, timeoutMs: 300 },
      ])
      catalog.gateways.push({ id: 'gw-dead', protocol: 'openai-chat', baseUrl: `http://127.0.0.1:${deadPort}/v1`, timeoutMs: 300 })
      catalog.models.push({ ...catalog.models[0]!, id: 'acme/dead-first', routes: [{ gateway: 'gw-dead', model: 'x' }, { gateway: 'gw-b', model: 'y' }] })
      catalog.models.push({ ...catalog.models[0]!, id: 'acme/only-a', routes: [{ gateway: 'gw-a', model: 'upstream-secret-model' }] })
      gw = await startTestGateway(backends, catalog)
    })
    afterAll(async () => {
      await gw.stop()
      a.stop()
      b.stop()
    })

    const post = (key: string, extra: Record<string, unknown> = {}) => gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: chatBody(extra) })

    for (const [name, behaviour] of [
      ['500', { kind: 'status', status: 500 }],
      ['503', { kind: 'status', status: 503 }],
      ['429', { kind: 'status', status: 429 }],
      ['timeout', { kind: 'hang' }],
      ['unreadable body', { kind: 'json', body: '{"id": "chatcmpl-1", "choi' }],
    ] as const) {
      test(`${name} on the first gateway → served by the second, svc.gateway = gw-b`, async () => {
        const u = await gw.user(1)
        a.script(behaviour as any)
        const res = await post(u.key)
        expect(res.status).toBe(200)
        const body = (await res.json()) as any
        expect(body.svc.gateway).toBe('gw-b')
        expect(body.model).toBe('acme/chat-1')
      })
    }

    test('connection refused on the first gateway → the next one serves', async () => {
      const u = await gw.user(1)
      const res = await post(u.key, { model: 'acme/dead-first' })
      expect(res.status).toBe(200)
      expect(((await res.json()) as any).svc.gateway).toBe('gw-b')
    })

    test('every gateway failing → 502 UPSTREAM_ERROR, no upstream detail, nothing billed, reservation released', async () => {
      const u = await gw.user(1)
      a.script({ kind: 'status', status: 500 })
      b.script({ kind: 'status', status: 502 })
      const res = await post(u.key)
      expect(res.status).toBe(502)
      const text = await res.text()
      expect(JSON.parse(text).error.code).toBe('UPSTREAM_ERROR')
      expectNoUpstreamIdentity(text, res.headers)
      await gw.settled()
      expect((await gw.runtime.deps.store.account(u.userId))?.reservedMicros).toBe(0n)
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
      const [log] = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, res.headers.get('x-request-id')!))
      expect(log).toMatchObject({ status: 502, errorCode: 'UPSTREAM_ERROR', costMicros: 0n })
    })

    test('an upstream 400 is the request’s fault: not retried, 400 BAD_REQUEST without the upstream text', async () => {
      const u = await gw.user(1)
      const seenB = b.seen.length
      a.script({ kind: 'status', status: 400, body: fixtureJson('openai-chat', 'error-400-unsupported-parameter.json') })
      const res = await post(u.key)
      expect(res.status).toBe(400)
      const text = await res.text()
      expect(JSON.parse(text).error.code).toBe('BAD_REQUEST')
      expect(text).not.toContain('max_tokens')
      expect(b.seen.length).toBe(seenB)
    })

    test('mid-stream drop → exactly one error frame, no [DONE]; billed more than zero and less than the reservation', async () => {
      const u = await gw.user(1)
      const sse = fixtureSse('openai-chat', 'stream-text-usage.sse')
      a.script({ kind: 'drop', text: sse, bytes: sse.indexOf('data:', 1200) })
      const res = await post(u.key, { model: 'acme/only-a', stream: true })
      expect(res.status).toBe(200)
      const text = await res.text()
      const frames = text.split('\n\n').filter(Boolean)
      const errors = frames.filter((f) => f.startsWith('data: {"error"'))
      expect(errors).toHaveLength(1)
      expect(frames.at(-1)).toBe(errors[0])
      expect(text).not.toContain('[DONE]')
      expect(JSON.parse(errors[0]!.slice(6)).error.code).toBe('UPSTREAM_ERROR')
      expectNoUpstreamIdentity(text, res.headers)
      await gw.settled()
      const [log] = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, res.headers.get('x-request-id')!))
      expect(log!.status).toBe(502)
      expect(log!.usageSource).toBe('estimate')
      expect(log!.costMicros).toBeGreaterThan(0n)
      const reservation = 4096n * 600_000n / 1_000_000n // default output cap at 0.6 USD/1M, at least
      expect(log!.costMicros).toBeLessThan(reservation)
      const books = await gw.books(u.userId)
      expect(books.ledgerSum).toBe(books.balance)
      expect(books.balance).toBe(1_000_000n - log!.costMicros)
    })

    test('an upstream error chunk mid-stream (recorded) → one error frame, billed from the usage it reported', async () => {
      const u = await gw.user(1)
      a.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-midstream-error-openrouter.sse'), chunkSize: 300 })
      const res = await post(u.key, { model: 'acme/only-a', stream: true })
      const text = await res.text()
      expect(text.match(/data: \{"error"/g)).toHaveLength(1)
      expect(text).not.toContain('[DONE]')
      expectNoUpstreamIdentity(text, res.headers)
      await gw.settled()
      const [log] = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, res.headers.get('x-request-id')!))
      // The error chunk carried usage: 43 prompt + 10 completion tokens → 43*0.15 + 10*0.6 = 12.45 → 13 micro-USD.
      expect(log).toMatchObject({ usageSource: 'upstream', inputTokens: 43, outputTokens: 10, costMicros: 13n })
    })

    test('client disconnect mid-stream aborts the upstream and bills neither zero nor the whole reservation', async () => {
      const u = await gw.user(1)
      const sse = fixtureSse('openai-chat', 'stream-text-usage.sse')
      const firstFrames = sse.slice(0, sse.indexOf('data:', 1200))
      a.script({ kind: 'stall', text: firstFrames })
      const url = gw.listen()
      const abortedBefore = a.aborted
      const controller = new AbortController()
      const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(u.key), body: chatBody({ model: 'acme/only-a', stream: true }), signal: controller.signal })
      const requestId = res.headers.get('x-request-id')!
      const reader = res.body!.getReader()
      const { value } = await reader.read()
      expect(new TextDecoder().decode(value)).toContain('"model":"acme/only-a"')
      controller.abort()
      await reader.cancel().catch(() => {})
      // The upstream sees its request aborted once the gateway notices the client is gone.
      for (let i = 0; i < 200 && a.aborted === abortedBefore; i++) await Bun.sleep(10)
      expect(a.aborted).toBeGreaterThan(abortedBefore)
      await gw.settled()
      const [log] = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, requestId))
      expect(log!.status).toBe(499)
      expect(log!.costMicros).toBeGreaterThan(0n)
      expect(log!.costMicros).toBeLessThan(2_458n) // the reservation: ~5 prompt tokens + 4096 output tokens
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(1_000_000n - log!.costMicros)
      expect(books.ledgerSum).toBe(books.balance)
    })
  })
}
