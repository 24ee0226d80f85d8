// The official `openai` SDK against a real listener, changing only its base URL.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

describe('openai SDK end to end (Postgres + Redis)', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let client: OpenAI
  let user: { userId: string; key: string }
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    user = await gw.user(1, { rpm: 1_000 })
    client = new OpenAI({ baseURL: `${gw.listen()}/v1`, apiKey: user.key, maxRetries: 0 })
  })
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  test('chat.completions.create returns the answer, the public model and svc', async () => {
    const r = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }] })
    expect(r.model).toBe('acme/chat-1')
    expect(r.choices[0]!.message.content).toStartWith('**Holiday Name:** Galaxy Day')
    expect(r.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 363 })
    expect((r as any).svc).toMatchObject({ cost: 0.000221, gateway: 'gw-a', usageSource: 'upstream' })
  })

  test('streaming: every chunk is a chat.completion.chunk, usage arrives, the last chunk carries svc', async () => {
    up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 50 })
    const stream = await client.chat.completions.create({ model: 'acme/chat-1', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    const chunks: any[] = []
    for await (const c of stream) chunks.push(c)
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')
    expect(text).toBe('4200 + 42 equals 4242.')
    expect(chunks.every((c) => c.model === 'acme/chat-1' && c.object === 'chat.completion.chunk')).toBe(true)
    expect(chunks.find((c) => c.usage)?.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 10 })
    expect(chunks.at(-1).svc).toMatchObject({ gateway: 'gw-a', usageSource: 'upstream' })
    expect(chunks.at(-1).svc.cost).toBe(0.000009) // 16*0.15 + 10*0.6 = 8.4 → 9 micro-USD
  })

  test('tools: parallel tool calls come through, non-streaming and streaming', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }]
    up.script({ kind: 'json', body: fixtureJson('openai-chat', 'json-tool-calls-two.json') })
    const r = await client.chat.completions.create({ model: 'acme/chat-1', tools, messages: [{ role: 'user', content: 'weather?' }] })
    expect(r.choices[0]!.finish_reason).toBe('tool_calls')
    expect(r.choices[0]!.message.tool_calls).toHaveLength(2)
    expect(up.seen.at(-1)!.body.tools).toEqual(tools)

    up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-tool-calls-two.sse'), chunkSize: 64 })
    const stream = await client.chat.completions.create({ model: 'acme/chat-1', stream: true, tools, messages: [{ role: 'user', content: 'weather?' }] })
    const args = new Map<number, string>()
    for await (const c of stream) for (const tc of c.choices[0]?.delta?.tool_calls ?? []) args.set(tc.index, (args.get(tc.index) ?? '') + (tc.function?.arguments ?? ''))
    expect(args.size).toBe(2)
    for (const a of args.values()) expect(() => JSON.parse(a)).not.toThrow()
  })

  test('models.list sees the catalog', async () => {
    const page = await client.models.list()
    expect(page.data.map((m) => m.id)).toEqual(['acme/chat-1'])
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: 'acme' })
  })

  test('each error surfaces as the SDK error class with our code', async () => {
    const bad = new OpenAI({ baseURL: client.baseURL, apiKey: 'sk-wrong', maxRetries: 0 })
    const call = (c: OpenAI, body: any) => c.chat.completions.create(body).then(() => undefined, (e: unknown) => e)
    const auth = await call(bad, { model: 'acme/chat-1', messages: [{ role: 'user', content: 'x' }] })
    expect(auth).toBeInstanceOf(OpenAI.AuthenticationError)
    const invalid = (await call(client, { model: 'acme/chat-1', messages: [], temperature: 1 })) as any
    expect(invalid).toBeInstanceOf(OpenAI.UnprocessableEntityError)
    expect(invalid.error.code).toBe('VALIDATION_FAILED')
    const unknown = (await call(client, { model: 'acme/none', messages: [{ role: 'user', content: 'x' }] })) as any
    expect(unknown).toBeInstanceOf(OpenAI.InternalServerError)
    expect(unknown.status).toBe(503)
    up.script({ kind: 'status', status: 500 })
    const upstream = (await call(client, { model: 'acme/chat-1', messages: [{ role: 'user', content: 'x' }] })) as any
    expect(upstream.status).toBe(502)
    expect(upstream.error.code).toBe('UPSTREAM_ERROR')
    const poor = await gw.user(0.000001)
    const broke = (await call(new OpenAI({ baseURL: client.baseURL, apiKey: poor.key, maxRetries: 0 }), { model: 'acme/chat-1', messages: [{ role: 'user', content: 'x' }] })) as any
    expect(broke).toBeInstanceOf(OpenAI.APIError)
    expect(broke.status).toBe(402)
    const limited = await gw.user(1, { rpm: 1 })
    const lc = new OpenAI({ baseURL: client.baseURL, apiKey: limited.key, maxRetries: 0 })
    await lc.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'x' }] })
    const rate = await call(lc, { model: 'acme/chat-1', messages: [{ role: 'user', content: 'x' }] })
    expect(rate).toBeInstanceOf(OpenAI.RateLimitError)
  })
})
