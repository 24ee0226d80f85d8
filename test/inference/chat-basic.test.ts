import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

for (const backends of ALL_BACKENDS) {
  describe(`chat basics on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    test('non-streaming answer is billed from upstream usage and lands in the ledger', async () => {
      const u = await gw.user(1)
      const res = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body: chatBody() })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-model')).toBe('acme/chat-1')
      const body = (await res.json()) as any
      expect(body.model).toBe('acme/chat-1')
      // json-text.json: 16 prompt + 363 completion tokens at 0.15 / 0.6 USD per 1M.
      // 16*0.15 + 363*0.6 = 220.2 micro-USD.
      expect(body.svc.cost).toBe(0.000221) // 220.2 micro-USD rounded up
      expect(body.svc.gateway).toBe('gw-a')
      expect(body.svc.usageSource).toBe('upstream')
      await gw.settled()
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(1_000_000n - 221n)
      expect(books.ledgerSum).toBe(books.balance)
    })

    test('streaming answer ends with usage, svc chunk and [DONE]', async () => {
      const u = await gw.user(1)
      up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 97 })
      const res = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body: chatBody({ stream: true }) })
      expect(res.headers.get('content-type')).toContain('text/event-stream')
      const text = await res.text()
      const frames = text.split('\n\n').filter(Boolean)
      expect(frames.at(-1)).toBe('data: [DONE]')
      const svcFrame = JSON.parse(frames.at(-2)!.slice(6))
      expect(svcFrame.choices).toEqual([])
      expect(svcFrame.svc.usageSource).toBe('upstream')
      const usageFrame = JSON.parse(frames.at(-3)!.slice(6))
      expect(usageFrame.usage.prompt_tokens).toBe(16)
      expect(text).not.toContain('gpt-4o')
      expect(up.seen.at(-1)!.body.stream_options).toEqual({ include_usage: true })
      expect(up.seen.at(-1)!.body.model).toBe('upstream-secret-model')
    })
  })
}
