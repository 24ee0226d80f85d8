// The fake upstream of the demo and the test kit (src/testing/fake-upstream) speaks all three
// protocols, so a catalog can route a model to a gateway of any kind: each protocol's own SDK
// gets the echo natively, streamed and not.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { startFakeUpstream } from '../../src/testing/fake-upstream/server.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'

describe('demo upstream in every protocol', () => {
  const up = startFakeUpstream()
  let gw: TestGateway
  let anthropic: Anthropic
  let openai: OpenAI
  beforeAll(async () => {
    const kinds = ['openai-chat', 'anthropic-messages', 'openai-responses'] as const
    const catalog: CatalogFile = {
      gateways: kinds.map((p) => ({ id: p, protocol: p, baseUrl: `http://127.0.0.1:${up.port}/v1`, timeoutMs: 5_000 })),
      models: kinds.map((p) => ({
        id: `demo/${p}`,
        name: p,
        provider: 'demo',
        contextWindow: 32_000,
        capabilities: ['text'],
        pricing: { input: 0.5, output: 1.5 },
        routes: [{ gateway: p, model: 'echo-1' }],
      })),
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    const u = await gw.user(1)
    const base = gw.listen()
    anthropic = new Anthropic({ baseURL: base, apiKey: u.key, maxRetries: 0 })
    openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: u.key, maxRetries: 0 })
  })
  afterAll(async () => {
    await gw.stop()
    await up.stop()
  })

  test('messages, native: create and stream', async () => {
    const m = await anthropic.messages.create({
      model: 'demo/anthropic-messages',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(m.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['You said: Hi'])
    expect(m.usage.output_tokens).toBeGreaterThan(0)
    const s = await anthropic.messages
      .stream({ model: 'demo/anthropic-messages', max_tokens: 50, messages: [{ role: 'user', content: 'Yo' }] })
      .finalMessage()
    expect(s.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['You said: Yo'])
  })

  test('responses, native: create and stream', async () => {
    const r = await openai.responses.create({ model: 'demo/openai-responses', input: 'Hi' })
    expect(r.output_text).toBe('You said: Hi')
    const s = await openai.responses.stream({ model: 'demo/openai-responses', input: [{ role: 'user', content: 'Yo' }] }).finalResponse()
    expect(s.output_text).toBe('You said: Yo')
    expect(s.usage?.output_tokens).toBeGreaterThan(0)
  })

  test('chat, native and over the other kinds', async () => {
    for (const model of ['demo/openai-chat', 'demo/anthropic-messages', 'demo/openai-responses']) {
      const c = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hey' }] })
      expect(c.choices[0]!.message.content).toBe('You said: Hey')
    }
  })
})
