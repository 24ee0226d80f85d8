// Streams before and after their first content (docs/failover.md "First-token deadline",
// "Tolerant streams"): headers at once but no content within firstTokenMs fails over while
// nothing has reached the client; a stream that started is never re-routed; an unreadable event
// is skipped and counted, never forwarded, in pass-through and translated streams alike.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { expectNoUpstreamIdentity, logOf, postChat, sseFrames } from '../helpers/chat.ts'
import { expectBilledOnce, NO_RETRY, scenarioCatalog } from '../helpers/failover.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'
import { ALL_BACKENDS, bearer, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const SSE = fixtureSse('openai-chat', 'stream-text-usage.sse')
/** The fixture's first frame: role only, no content — not a first token. */
const ROLE_ONLY = SSE.slice(0, SSE.indexOf('\n\n') + 2)
const GARBAGE = 'data: {"id":"chatcmpl-garbage","choices":[{"delta":\n\n'
const withGarbage = (text: string) => {
  const cut = text.indexOf('data:', 1200)
  return text.slice(0, cut) + GARBAGE + text.slice(cut)
}

for (const backends of ALL_BACKENDS) {
  describe(`stream failover on ${backends.db}+${backends.store}`, () => {
    let a: FakeUpstream
    let b: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      a = startFakeUpstream({ kind: 'sse', text: SSE })
      b = startFakeUpstream({ kind: 'sse', text: SSE })
      const catalog = scenarioCatalog(
        [
          { id: 'gw-slow', url: a.url, timeoutMs: 10_000, policy: { ...NO_RETRY, firstTokenMs: 1_000 } },
          { id: 'gw-b', url: b.url, timeoutMs: 10_000, policy: NO_RETRY },
        ],
        [
          { id: 'acme/slow-first', routes: ['gw-slow', 'gw-b'] },
          { id: 'acme/slow-only', routes: ['gw-slow'] },
          { id: 'acme/b', routes: ['gw-b'] },
        ],
      )
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      a.stop()
      b.stop()
    }, 30_000)
    const counters = () => gw.runtime.deps.router.counters

    test('headers and a role-only chunk at once, then nothing → after firstTokenMs the next route streams the answer; the slow one is aborted', async () => {
      const u = await gw.user(1)
      const aborted = a.aborted
      const timeouts = counters().firstTokenTimeouts
      a.script({ kind: 'stall', text: ROLE_ONLY })
      const res = await postChat(gw, u.key, { model: 'acme/slow-first', stream: true })
      expect(res.status).toBe(200)
      const text = await res.text()
      const frames = sseFrames(text)
      expect(frames.at(-1)).toBe('data: [DONE]')
      expect(frames).toHaveLength(sseFrames(SSE).length + 1) // b's frames once each (no replay of a's), plus svc
      expect(JSON.parse(frames.at(-2)!.slice(6)).svc.gateway).toBe('gw-b')
      expect(text).not.toContain('"error"')
      expectNoUpstreamIdentity(text, res.headers, [new URL(a.url).host, new URL(b.url).host])
      await a.whenAborted(aborted + 1)
      expect(counters().firstTokenTimeouts).toBe(timeouts + 1)
      await expectBilledOnce(gw, u.userId, res.headers.get('x-request-id')!, 'gw-b')
    })

    test('no headers within firstTokenMs (though within timeoutMs) also fails over while another route remains', async () => {
      const u = await gw.user(1)
      const timeouts = counters().firstTokenTimeouts
      a.script({ kind: 'hang' })
      const res = await postChat(gw, u.key, { model: 'acme/slow-first', stream: true })
      const frames = sseFrames(await res.text())
      expect(frames.at(-1)).toBe('data: [DONE]')
      expect(JSON.parse(frames.at(-2)!.slice(6)).svc.gateway).toBe('gw-b')
      expect(counters().firstTokenTimeouts).toBe(timeouts + 1)
      await expectBilledOnce(gw, u.userId, res.headers.get('x-request-id')!, 'gw-b')
    })

    test('a first token within the deadline commits the route: the stream is delivered whole, frames replayed in order', async () => {
      const u = await gw.user(1)
      const seenB = b.seen.length
      a.script({ kind: 'sse', text: SSE, chunkSize: 97, delayMs: 5 })
      const res = await postChat(gw, u.key, { model: 'acme/slow-first', stream: true })
      const frames = sseFrames(await res.text())
      expect(frames).toHaveLength(sseFrames(SSE).length + 1)
      expect(
        frames
          .slice(1, -2)
          .map((f) => JSON.parse(f.slice(6)).choices[0]?.delta?.content ?? '')
          .join(''),
      ).toBe(
        sseFrames(SSE)
          .slice(1, -1)
          .map((f) => JSON.parse(f.slice(6)).choices[0]?.delta?.content ?? '')
          .join(''),
      )
      expect(JSON.parse(frames.at(-2)!.slice(6)).svc.gateway).toBe('gw-slow')
      expect(b.seen.length).toBe(seenB)
      await expectBilledOnce(gw, u.userId, res.headers.get('x-request-id')!, 'gw-slow')
    })

    test('on the last route there is nothing to fail over to: a slow first token is waited for (up to timeoutMs)', async () => {
      const u = await gw.user(1)
      a.script({
        kind: 'fn',
        handle: async () => (await Bun.sleep(1_300), new Response(SSE, { headers: { 'content-type': 'text/event-stream' } })),
      })
      const res = await postChat(gw, u.key, { model: 'acme/slow-only', stream: true })
      const frames = sseFrames(await res.text())
      expect(frames.at(-1)).toBe('data: [DONE]')
      await expectBilledOnce(gw, u.userId, res.headers.get('x-request-id')!, 'gw-slow')
    })

    test('a stream cut after its first content is not re-routed: one error frame, no [DONE]', async () => {
      const u = await gw.user(1)
      const seenB = b.seen.length
      a.script({ kind: 'drop', text: SSE, bytes: SSE.indexOf('data:', 1200) })
      const res = await postChat(gw, u.key, { model: 'acme/slow-first', stream: true })
      const text = await res.text()
      expect(sseFrames(text).filter((f) => f.startsWith('data: {"error"'))).toHaveLength(1)
      expect(text).not.toContain('[DONE]')
      expect(b.seen.length).toBe(seenB)
      await gw.settled()
      expect(await logOf(gw, res.headers.get('x-request-id')!)).toMatchObject({ status: 502, gateway: 'gw-slow', usageSource: 'estimate' })
    })

    test('pass-through: an unreadable event is skipped and counted; the client gets every readable frame and [DONE]', async () => {
      const u = await gw.user(1)
      const skipped = counters().unreadableEvents
      b.script({ kind: 'sse', text: withGarbage(SSE), chunkSize: 150 })
      const res = await postChat(gw, u.key, { model: 'acme/b', stream: true })
      const text = await res.text()
      expect(sseFrames(text)).toHaveLength(sseFrames(SSE).length + 1)
      expect(text).not.toContain('chatcmpl-garbage')
      expect(text).not.toContain('"error"')
      expect(counters().unreadableEvents).toBe(skipped + 1)
      await expectBilledOnce(gw, u.userId, res.headers.get('x-request-id')!, 'gw-b')
    })

    test('translated (responses caller over a chat upstream): the unreadable event never reaches the client as garbage; billed from the usage that parsed', async () => {
      const u = await gw.user(1)
      const skipped = counters().unreadableEvents
      b.script({ kind: 'sse', text: withGarbage(SSE) })
      const res = await gw.request('/v1/responses', {
        method: 'POST',
        headers: bearer(u.key),
        body: JSON.stringify({ model: 'acme/b', input: 'Say hello', stream: true }),
      })
      expect(res.status).toBe(200)
      const text = await res.text()
      expect(text).toContain('event: response.completed')
      expect(text).not.toContain('event: error')
      expect(text).not.toContain('garbage')
      expect(counters().unreadableEvents).toBe(skipped + 1)
      await expectBilledOnce(gw, u.userId, res.headers.get('x-request-id')!, 'gw-b')
    })

    test('a stream of nothing but unreadable events fails with one error frame, not a success', async () => {
      const u = await gw.user(1)
      b.script({ kind: 'sse', text: ROLE_ONLY + GARBAGE.repeat(20) })
      const res = await postChat(gw, u.key, { model: 'acme/b', stream: true })
      const text = await res.text()
      expect(sseFrames(text).filter((f) => f.startsWith('data: {"error"'))).toHaveLength(1)
      expect(text).not.toContain('[DONE]')
      expect(text).not.toContain('garbage')
    })
  })
}
