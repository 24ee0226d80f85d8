// Streams that fail after their first byte (docs/api.md "Streams that fail"): exactly one
// `data: {"error":…}` frame and no [DONE]; billed for what was delivered (never zero, never the
// whole reservation) unless the upstream reported usage. A client that goes away aborts the
// upstream request and its call is logged as 499.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectNoUpstreamIdentity, logOf, postChat, reservedOf, sseFrames } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'

// "Say hello" (9 chars + 4 framing) → 5 prompt tokens; no max_tokens → the default 4096 output
// tokens. At 0.15 / 0.6 USD per 1M: 0.75 + 2457.6 = 2458.35 → 2459 micro-USD reserved.
const RESERVATION = 2459n

const SSE = fixtureSse('openai-chat', 'stream-text-usage.sse')
/** The fixture's frames up to (not including) the first frame starting after byte 1200. */
const PREFIX = SSE.slice(0, SSE.indexOf('data:', 1200))
const PREFIX_FRAMES = sseFrames(PREFIX).length

for (const backends of ALL_BACKENDS) {
  describe(`chat stream faults on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'sse', text: SSE })
      const catalog = simpleCatalog([
        { id: 'gw-a', url: up.url, timeoutMs: 10_000 },
        { id: 'gw-idle', url: up.url, timeoutMs: 300 },
      ])
      catalog.models = [
        { ...catalog.models[0]!, routes: [{ gateway: 'gw-a', model: 'upstream-secret-model' }] },
        { ...catalog.models[0]!, id: 'acme/short-idle', routes: [{ gateway: 'gw-idle', model: 'upstream-secret-model' }] },
      ]
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    /** The stream ended with exactly one error frame, last, and no [DONE]; returns the frames. */
    function expectOneErrorFrame(text: string, headers: Headers): string[] {
      const frames = sseFrames(text)
      const errors = frames.filter((f) => f.startsWith('data: {"error"'))
      expect(errors).toHaveLength(1)
      expect(frames.at(-1)).toBe(errors[0]!)
      expect(text).not.toContain('[DONE]')
      expect(text).not.toContain('"svc"')
      const { error } = JSON.parse(errors[0]!.slice(6))
      expect(error.code).toBe('UPSTREAM_ERROR')
      expect(Object.keys(error).sort()).toEqual(['code', 'message'])
      expectNoUpstreamIdentity(text, headers, [new URL(up.url).host])
      return frames
    }

    /** Billed from an estimate: more than zero, less than the reservation; books consistent. */
    async function expectPartlyBilled(u: { userId: string }, requestId: string, status: number) {
      await gw.settled()
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      const log = await logOf(gw, requestId)
      expect(log).toMatchObject({ status, stream: true, usageSource: 'estimate', inputTokens: 5 })
      expect(log.outputTokens).toBeGreaterThan(0)
      expect(log.costMicros).toBeGreaterThan(0n)
      expect(log.costMicros).toBeLessThan(RESERVATION)
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(1_000_000n - log.costMicros)
      expect(books.ledgerSum).toBe(books.balance)
      return log
    }

    test('mid-stream drop → the frames so far, then exactly one error frame and no [DONE]; billed more than zero and less than the reservation', async () => {
      const u = await gw.user(1)
      up.script({ kind: 'drop', text: SSE, bytes: PREFIX.length })
      const res = await postChat(gw, u.key, { stream: true })
      expect(res.status).toBe(200)
      const frames = expectOneErrorFrame(await res.text(), res.headers)
      expect(frames).toHaveLength(PREFIX_FRAMES + 1)
      for (const f of frames.slice(0, -1))
        expect(JSON.parse(f.slice(6))).toMatchObject({ object: 'chat.completion.chunk', model: 'acme/chat-1' })
      const log = await expectPartlyBilled(u, res.headers.get('x-request-id')!, 502)
      expect(log.errorCode).toBe('UPSTREAM_ERROR')
    })

    test('an upstream that goes quiet mid-stream for longer than its timeout → one error frame, the upstream request aborted', async () => {
      const u = await gw.user(1)
      const aborted = up.aborted
      up.script({ kind: 'stall', text: PREFIX })
      const res = await postChat(gw, u.key, { model: 'acme/short-idle', stream: true })
      expect(res.status).toBe(200)
      const frames = expectOneErrorFrame(await res.text(), res.headers)
      expect(frames).toHaveLength(PREFIX_FRAMES + 1)
      await up.whenAborted(aborted + 1)
      const log = await expectPartlyBilled(u, res.headers.get('x-request-id')!, 502)
      expect(log.errorCode).toBe('UPSTREAM_TIMEOUT')
    })

    test('a stream that ends before the answer is complete (no finish_reason, no [DONE]) → one error frame', async () => {
      const u = await gw.user(1)
      up.script({ kind: 'sse', text: PREFIX })
      const res = await postChat(gw, u.key, { stream: true })
      expectOneErrorFrame(await res.text(), res.headers)
      await expectPartlyBilled(u, res.headers.get('x-request-id')!, 502)
    })

    test('an unreadable event mid-stream is skipped (docs/failover.md): the rest is delivered to [DONE], billed from the usage that parsed', async () => {
      const u = await gw.user(1)
      const skipped = gw.runtime.deps.router.counters.unreadableEvents
      up.script({ kind: 'sse', text: `${PREFIX}data: {"id":"chatcmpl-x","choices":[{"delta":\n\n${SSE.slice(PREFIX.length)}` })
      const res = await postChat(gw, u.key, { stream: true })
      const text = await res.text()
      const frames = sseFrames(text)
      expect(frames).toHaveLength(sseFrames(SSE).length + 1) // every upstream frame, plus the svc chunk
      expect(frames.at(-1)).toBe('data: [DONE]')
      expect(text).not.toContain('"error"')
      expect(text).not.toContain('chatcmpl-x')
      expect(gw.runtime.deps.router.counters.unreadableEvents).toBe(skipped + 1)
      await gw.settled()
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      const log = await logOf(gw, res.headers.get('x-request-id')!)
      expect(log).toMatchObject({ status: 200, usageSource: 'upstream', errorCode: null })
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(1_000_000n - log.costMicros)
      expect(books.ledgerSum).toBe(books.balance)
    })

    test('an error chunk from the upstream (recorded) → one error frame without its text, billed from the usage it reported', async () => {
      const u = await gw.user(1)
      up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-midstream-error-openrouter.sse'), chunkSize: 300 })
      const res = await postChat(gw, u.key, { stream: true })
      const text = await res.text()
      expectOneErrorFrame(text, res.headers)
      await gw.settled()
      // The error chunk carried usage: 43 prompt + 10 completion tokens → 43*0.15 + 10*0.6 = 12.45 → 13 micro-USD.
      expect(await logOf(gw, res.headers.get('x-request-id')!)).toMatchObject({
        status: 502,
        usageSource: 'upstream',
        inputTokens: 43,
        outputTokens: 10,
        costMicros: 13n,
      })
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n - 13n, ledgerSum: 1_000_000n - 13n })
    })

    test('client disconnect mid-stream (real socket) → the upstream request is aborted; billed neither zero nor the reservation; logged 499', async () => {
      const u = await gw.user(1)
      const url = gw.listen()
      const aborted = up.aborted
      up.script({ kind: 'stall', text: PREFIX })
      const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(u.key), body: chatBody({ stream: true }) })
      expect(res.status).toBe(200)
      const requestId = res.headers.get('x-request-id')!
      const reader = res.body!.getReader()
      const decoder = new TextDecoder()
      let received = ''
      while (sseFrames(received).length < 3) {
        const { value, done } = await reader.read()
        expect(done).toBe(false)
        received += decoder.decode(value, { stream: true })
      }
      expect(received).toContain('"model":"acme/chat-1"')
      expect(received).not.toContain('upstream-secret-model')
      // While the stream is open the whole estimate is held.
      expect(await reservedOf(gw, u.userId)).toBe(RESERVATION)
      await reader.cancel()
      await up.whenAborted(aborted + 1)
      const log = await expectPartlyBilled(u, requestId, 499)
      expect(log.errorCode).toBe('CLIENT_CLOSED')
      expect(log.gateway).toBe('gw-a')
    })

    test('client disconnect in-process (the body cancelled) is handled the same way', async () => {
      const u = await gw.user(1)
      const aborted = up.aborted
      up.script({ kind: 'stall', text: PREFIX })
      const res = await postChat(gw, u.key, { stream: true })
      const reader = res.body!.getReader()
      const first = await reader.read()
      expect(new TextDecoder().decode(first.value)).toContain('chat.completion.chunk')
      await reader.cancel()
      await up.whenAborted(aborted + 1)
      await expectPartlyBilled(u, res.headers.get('x-request-id')!, 499)
    })
  })
}
