// The Vercel AI SDK (`ai`) through @ai-sdk/openai (chat and responses) and @ai-sdk/anthropic,
// changing only the base URL: generateText and streamText, native and translated.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, streamText } from 'ai'
import { startTestGateway, type TestGateway, perProtocolCatalog } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse, fixtureText } from '../helpers/fixtures.ts'

const PROTOS = ['openai-chat', 'anthropic-messages', 'openai-responses'] as const

describe('Vercel AI SDK end to end', () => {
  const ups = {} as Record<(typeof PROTOS)[number], FakeUpstream>
  let gw: TestGateway
  let openai: ReturnType<typeof createOpenAI>
  let anthropic: ReturnType<typeof createAnthropic>
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const catalog = perProtocolCatalog(ups, { upstreamModel: 'up' })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    const { key } = await gw.user(5, { rpm: 1_000 })
    const base = gw.listen()
    openai = createOpenAI({ baseURL: `${base}/v1`, apiKey: key })
    anthropic = createAnthropic({ baseURL: `${base}/v1`, apiKey: key })
  })
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  })

  test('generateText: openai chat ← anthropic, openai responses ← chat, anthropic ← responses', async () => {
    ups['anthropic-messages'].script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    const a = await generateText({ model: openai.chat('t/anthropic-messages'), prompt: 'Hello', maxRetries: 0 })
    expect(a.text).toStartWith("Hello! I'm doing well")
    expect(a.usage.outputTokens).toBe(29)

    ups['openai-chat'].script({ kind: 'json', body: fixtureText('openai-chat', 'json-text.json') })
    const b = await generateText({ model: openai.responses('t/openai-chat'), prompt: 'Hello', maxRetries: 0 })
    expect(b.text).toStartWith('**Holiday Name:** Galaxy Day')
    expect(b.usage.outputTokens).toBe(363)

    ups['openai-responses'].script({ kind: 'json', body: fixtureText('openai-responses', 'json-text.json') })
    const c = await generateText({ model: anthropic('t/openai-responses'), prompt: 'Add', maxRetries: 0 })
    expect(c.text).toBe('4200 + 42 equals 4242.')
    expect(c.finishReason).toBe('stop')
  })

  test('streamText: anthropic ← anthropic (pass-through) and openai responses ← anthropic (translated)', async () => {
    ups['anthropic-messages'].script({ kind: 'sse', text: fixtureSse('anthropic-messages', 'stream-text.sse'), chunkSize: 50 })
    const a = streamText({ model: anthropic('t/anthropic-messages'), prompt: 'Add', maxRetries: 0 })
    let text = ''
    for await (const d of a.textStream) text += d
    expect(text).toBe('4200 + 42 = 4242')
    expect((await a.usage).outputTokens).toBe(15)

    ups['anthropic-messages'].script({ kind: 'sse', text: fixtureSse('anthropic-messages', 'stream-text.sse'), chunkSize: 50 })
    const b = streamText({ model: openai.responses('t/anthropic-messages'), prompt: 'Add', maxRetries: 0 })
    let text2 = ''
    for await (const d of b.textStream) text2 += d
    expect(text2).toBe('4200 + 42 = 4242')
    expect(await b.finishReason).toBe('stop')
  })
})
