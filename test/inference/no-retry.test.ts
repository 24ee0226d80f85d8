// `x-should-retry: false` where a retry cannot help (core/errors.ts clientRetryHeaders): the
// official SDKs, left at their default retries, send an unknown or unavailable model, a bad key
// or a short balance exactly once; an upstream failure keeps the SDKs' own retry policy.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

const hi = [{ role: 'user' as const, content: 'hi' }]

for (const backends of ALL_BACKENDS) {
  describe(`client retries on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    let base: string
    let key: string
    let attempts = 0
    const counting: typeof fetch = Object.assign((input: RequestInfo | URL, init?: RequestInit) => (attempts++, fetch(input, init)), {
      preconnect: fetch.preconnect,
    })
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      catalog.models.push({ ...catalog.models[0]!, id: 'acme/old', deprecated: true })
      gw = await startTestGateway(backends, catalog)
      base = gw.listen()
      key = (await gw.user(1)).key
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    }, 60_000)

    const once = async (call: () => Promise<unknown>, status: number) => {
      attempts = 0
      const err: any = await call().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(err?.status).toBe(status)
      expect(attempts).toBe(1)
    }

    test('openai SDK (default maxRetries): unknown model, deprecated model, bad key, empty balance → one attempt', async () => {
      const client = (apiKey: string) => new OpenAI({ baseURL: `${base}/v1`, apiKey, fetch: counting })
      await once(() => client(key).chat.completions.create({ model: 'acme/typo', messages: hi }), 503)
      await once(() => client(key).chat.completions.create({ model: 'acme/old', messages: hi }), 503)
      await once(() => client('sk-wrong').chat.completions.create({ model: 'acme/chat-1', messages: hi }), 401)
      const poor = await gw.user(0.000001)
      await once(() => client(poor.key).chat.completions.create({ model: 'acme/chat-1', messages: hi }), 402)
      await once(() => client(key).responses.create({ model: 'acme/typo', input: 'hi' }), 404)
    }, 60_000)

    test('anthropic SDK (default maxRetries): an unavailable model (529) and an unknown one → one attempt', async () => {
      const client = new Anthropic({ baseURL: base, apiKey: key, fetch: counting })
      await once(() => client.messages.create({ model: 'acme/old', max_tokens: 10, messages: hi }), 529)
      await once(() => client.messages.create({ model: 'acme/typo', max_tokens: 10, messages: hi }), 404)
      await once(() => client.messages.countTokens({ model: 'acme/typo', messages: hi }), 404)
    })

    test('an upstream failure (502) and a rate limit (429) carry no x-should-retry: the SDKs may retry them', async () => {
      up.script({ kind: 'status', status: 500 })
      const failed = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: bearer(key), body: chatBody() })
      expect(failed.status).toBe(502)
      expect(failed.headers.get('x-should-retry')).toBeNull()
      const typo = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: bearer(key),
        body: chatBody({ model: 'acme/typo' }),
      })
      expect(typo.headers.get('x-should-retry')).toBe('false')
      const limited = await gw.user(1, { rpm: 1 })
      await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: bearer(limited.key), body: chatBody() })
      const second = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: bearer(limited.key), body: chatBody() })
      expect(second.status).toBe(429)
      expect(second.headers.get('x-should-retry')).toBeNull()
    })
  })
}
