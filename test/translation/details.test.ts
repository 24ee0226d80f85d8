// Translation details: failover across gateways of different protocols, cache usage without
// double counting, truncation, images, tool_choice / stop / max tokens mapping.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureText } from '../helpers/fixtures.ts'
import { describeServices } from '../helpers/services.ts'

describeServices('translation details (Postgres + Redis)', () => {
  let chat: FakeUpstream
  let anth: FakeUpstream
  let resp: FakeUpstream
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    chat = startFakeUpstream()
    anth = startFakeUpstream()
    resp = startFakeUpstream()
    const pricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }
    const catalog: CatalogFile = {
      gateways: [
        { id: 'gw-chat', protocol: 'openai-chat', baseUrl: `${chat.url}/v1`, timeoutMs: 1_000 },
        { id: 'gw-anth', protocol: 'anthropic-messages', baseUrl: `${anth.url}/v1`, timeoutMs: 1_000 },
        { id: 'gw-resp', protocol: 'openai-responses', baseUrl: `${resp.url}/v1`, timeoutMs: 1_000 },
      ],
      models: [
        {
          id: 't/mixed',
          name: 'Mixed',
          provider: 't',
          contextWindow: 200_000,
          capabilities: ['text'],
          pricing,
          routes: [
            { gateway: 'gw-chat', model: 'c' },
            { gateway: 'gw-anth', model: 'a' },
            { gateway: 'gw-resp', model: 'r' },
          ],
        },
        {
          id: 't/anth',
          name: 'Anth',
          provider: 't',
          contextWindow: 200_000,
          capabilities: ['text'],
          pricing,
          routes: [{ gateway: 'gw-anth', model: 'a' }],
        },
        {
          id: 't/chat',
          name: 'Chat',
          provider: 't',
          contextWindow: 200_000,
          capabilities: ['text'],
          pricing,
          routes: [{ gateway: 'gw-chat', model: 'c' }],
        },
        {
          id: 't/resp',
          name: 'Resp',
          provider: 't',
          contextWindow: 200_000,
          capabilities: ['text'],
          pricing,
          routes: [{ gateway: 'gw-resp', model: 'r' }],
        },
      ],
    }
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, catalog)
    key = (await gw.user(10, { rpm: 1_000 })).key
  })
  afterAll(async () => {
    await gw.stop()
    for (const u of [chat, anth, resp]) u.stop()
  })
  const post = (path: string, body: unknown) =>
    gw.request(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  test('failover crosses protocols: chat gateway fails, the Anthropic gateway serves a chat caller', async () => {
    chat.script({ kind: 'status', status: 503 })
    anth.script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    const res = await post('/v1/chat/completions', { model: 't/mixed', messages: [{ role: 'user', content: 'Hello' }] })
    const body = (await res.json()) as any
    expect(res.status).toBe(200)
    expect(body.svc.gateway).toBe('gw-anth')
    expect(body.choices[0].message.content).toStartWith("Hello! I'm doing well")
    expect(anth.seen.at(-1)!.body).toMatchObject({ model: 'a', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] })

    chat.script({ kind: 'status', status: 500 })
    anth.script({ kind: 'hang' })
    resp.script({ kind: 'json', body: fixtureText('openai-responses', 'json-text.json') })
    const m = await post('/v1/messages', { model: 't/mixed', max_tokens: 100, messages: [{ role: 'user', content: 'Add' }] })
    const mb = (await m.json()) as any
    expect(m.status).toBe(200)
    expect(mb.content[0].text).toBe('4200 + 42 equals 4242.')
  })

  test('cache usage crosses without double counting and is billed at cache prices', async () => {
    anth.script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-cache-read.json') })
    const res = await post('/v1/chat/completions', { model: 't/anth', messages: [{ role: 'user', content: 'Long doc question' }] })
    const body = (await res.json()) as any
    // Anthropic: 12 input + 4167 cache read + 0 write; chat counts them all as prompt tokens.
    expect(body.usage).toMatchObject({
      prompt_tokens: 4179,
      completion_tokens: 350,
      total_tokens: 4529,
      prompt_tokens_details: { cached_tokens: 4167 },
    })
    await gw.settled()
    const [log] = await gw.runtime.deps.db
      .select()
      .from(requestLogs)
      .where(eq(requestLogs.id, res.headers.get('x-request-id')!))
    expect(log).toMatchObject({ inputTokens: 12, cacheReadTokens: 4167, cacheWriteTokens: 0, outputTokens: 350 })
    // 12×3 + 4167×0.3 + 350×15 = 36 + 1250.1 + 5250 = 6536.1 → 6537 micro-USD.
    expect(log!.costMicros).toBe(6537n)

    chat.script({ kind: 'json', body: fixtureText('openai-chat', 'json-cached-tokens.json') })
    const m = (await (
      await post('/v1/messages', { model: 't/chat', max_tokens: 200, messages: [{ role: 'user', content: 'q' }] })
    ).json()) as any
    expect(m.usage).toMatchObject({ input_tokens: 79, cache_read_input_tokens: 3584, cache_creation_input_tokens: 0, output_tokens: 117 })
  })

  test('truncation maps to each protocol: length / max_tokens / incomplete', async () => {
    anth.script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-max-tokens.json') })
    const c = (await (
      await post('/v1/chat/completions', { model: 't/anth', max_tokens: 50, messages: [{ role: 'user', content: 'Essay' }] })
    ).json()) as any
    expect(c.choices[0].finish_reason).toBe('length')
    chat.script({ kind: 'json', body: fixtureText('openai-chat', 'json-max-tokens-length.json') })
    const m = (await (
      await post('/v1/messages', { model: 't/chat', max_tokens: 10, messages: [{ role: 'user', content: 'Essay' }] })
    ).json()) as any
    expect(m.stop_reason).toBe('max_tokens')
    chat.script({ kind: 'json', body: fixtureText('openai-chat', 'json-max-tokens-length.json') })
    const r = (await (await post('/v1/responses', { model: 't/chat', max_output_tokens: 10, input: 'Essay' })).json()) as any
    expect(r).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })
  })

  test('request parameters map: images, tool_choice, stop sequences, max tokens, system', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUg=='
    anth.script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    await post('/v1/chat/completions', {
      model: 't/anth',
      max_completion_tokens: 77,
      stop: ['END'],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      messages: [
        { role: 'system', content: 'Be terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          ],
        },
      ],
    })
    expect(anth.seen.at(-1)!.body).toMatchObject({
      max_tokens: 77,
      stop_sequences: ['END'],
      system: 'Be terse.',
      tool_choice: { type: 'tool', name: 'lookup' },
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
          ],
        },
      ],
    })

    chat.script({ kind: 'json', body: fixtureText('openai-chat', 'json-text.json') })
    await post('/v1/messages', {
      model: 't/chat',
      max_tokens: 55,
      system: [{ type: 'text', text: 'Be kind.' }],
      tool_choice: { type: 'any' },
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url: 'https://img.example/cat.png' } },
            { type: 'text', text: 'Describe' },
          ],
        },
      ],
    })
    expect(chat.seen.at(-1)!.body).toMatchObject({
      max_tokens: 55,
      tool_choice: 'required',
      messages: [
        { role: 'system', content: 'Be kind.' },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'https://img.example/cat.png' } },
            { type: 'text', text: 'Describe' },
          ],
        },
      ],
    })

    resp.script({ kind: 'json', body: fixtureText('openai-responses', 'json-text.json') })
    await post('/v1/chat/completions', {
      model: 't/resp',
      max_tokens: 33,
      temperature: 0.2,
      messages: [
        { role: 'developer', content: 'Rules.' },
        { role: 'user', content: 'Hi' },
      ],
    })
    expect(resp.seen.at(-1)!.body).toMatchObject({
      instructions: 'Rules.',
      max_output_tokens: 33,
      temperature: 0.2,
      store: false,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
    })
  })
})
