// The official `openai` SDK against a real listener, changing only its base URL: answers,
// streams, tools and models.list read as the SDK expects, and every refusal surfaces as the
// SDK's own error class with our code.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { UPSTREAM_SECRETS } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

const hi = [{ role: 'user' as const, content: 'hi' }]
const tools = [
  {
    type: 'function' as const,
    function: { name: 'secret_retrieval_tool', parameters: { type: 'object', properties: { password: { type: 'string' } } } },
  },
]

/** The rejection of a call, or undefined when it succeeded. */
const failure = (p: Promise<unknown>): Promise<any> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  )

for (const backends of ALL_BACKENDS) {
  describe(`openai SDK end to end on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    let baseURL: string
    let client: OpenAI
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      catalog.models.push({ ...catalog.models[0]!, id: 'acme/old', deprecated: true })
      gw = await startTestGateway(backends, catalog)
      baseURL = `${gw.listen()}/v1`
      const user = await gw.user(1, { rpm: 1_000 })
      client = new OpenAI({ baseURL, apiKey: user.key, maxRetries: 0 })
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const clientFor = (apiKey: string) => new OpenAI({ baseURL, apiKey, maxRetries: 0 })

    test('chat.completions.create: the answer, the public model slug, usage, svc and the request id', async () => {
      const { data: r, request_id } = await client.chat.completions.create({ model: 'acme/chat-1', messages: hi }).withResponse()
      const direct = await client.chat.completions.create({ model: 'acme/chat-1', messages: hi })
      expect(r.object).toBe('chat.completion')
      expect(r.model).toBe('acme/chat-1')
      expect(r.choices[0]!.message.content).toStartWith('**Holiday Name:** Galaxy Day')
      expect(r.choices[0]!.finish_reason).toBe('stop')
      expect(r.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 363, total_tokens: 379 })
      expect((r as any).svc).toMatchObject({ cost: 0.000221, gateway: 'gw-a', usageSource: 'upstream' })
      expect(typeof (r as any).svc.latencyMs).toBe('number')
      expect(request_id).toMatch(/^req_/)
      expect(direct._request_id).toMatch(/^req_/)
      expect(direct._request_id).not.toBe(request_id)
    })

    test('streaming: chat.completion.chunk with the slug throughout, text intact, a usage chunk, svc on the last chunk', async () => {
      up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 50 })
      const stream = await client.chat.completions.create({ model: 'acme/chat-1', stream: true, messages: hi })
      const chunks: any[] = []
      for await (const c of stream) chunks.push(c)
      expect(chunks.every((c) => c.model === 'acme/chat-1' && c.object === 'chat.completion.chunk')).toBe(true)
      expect(chunks[0].choices[0].delta.role).toBe('assistant')
      expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('4200 + 42 equals 4242.')
      expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true)
      const usage = chunks.filter((c) => c.usage)
      expect(usage).toHaveLength(1)
      expect(usage[0].usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 10, total_tokens: 26 })
      const last = chunks.at(-1)
      expect(last.choices).toEqual([])
      expect(last.svc).toMatchObject({ gateway: 'gw-a', usageSource: 'upstream', cost: 0.000009 }) // 16*0.15 + 10*0.6 = 8.4 → 9 micro-USD
      expect(chunks.slice(0, -1).every((c) => c.svc === undefined)).toBe(true)
      // The SDK does not ask for usage; the gateway always does.
      expect(up.seen.at(-1)!.body.stream_options).toEqual({ include_usage: true })
    })

    test('tools: two parallel tool calls come through, non-streaming and streaming', async () => {
      up.script({ kind: 'json', body: fixtureJson('openai-chat', 'json-tool-calls-two.json') })
      const r = await client.chat.completions.create({ model: 'acme/chat-1', tools, messages: hi })
      expect(r.choices[0]!.finish_reason).toBe('tool_calls')
      const calls = r.choices[0]!.message.tool_calls!
      expect(calls.map((c: any) => [c.id, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
        ['call_v6LacIrChvs6ITVpIZqy5tFc', 'secret_retrieval_tool', { password: 'mellon' }],
        ['call_onyWzk4mLTGKzW9cthmf4Llq', 'secret_retrieval_tool', { password: 'radiance' }],
      ])
      expect(up.seen.at(-1)!.body.tools).toEqual(tools)

      up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-tool-calls-two.sse'), chunkSize: 64 })
      const stream = await client.chat.completions.create({ model: 'acme/chat-1', stream: true, tools, messages: hi })
      const byIndex = new Map<number, { id?: string; name?: string; args: string }>()
      let finish: string | null | undefined
      for await (const c of stream) {
        finish ??= c.choices[0]?.finish_reason
        for (const tc of c.choices[0]?.delta?.tool_calls ?? []) {
          const acc = byIndex.get(tc.index) ?? { args: '' }
          acc.id ??= tc.id
          acc.name ??= tc.function?.name
          acc.args += tc.function?.arguments ?? ''
          byIndex.set(tc.index, acc)
        }
      }
      expect(finish).toBe('tool_calls')
      expect([...byIndex.keys()]).toEqual([0, 1])
      for (const acc of byIndex.values()) {
        expect(acc.id).toMatch(/^call_/)
        expect(acc.name).toBe('secret_retrieval_tool')
        expect(Object.keys(JSON.parse(acc.args))).toEqual(['password'])
      }
    })

    test('the stream helper (chat.completions.stream) assembles the final message', async () => {
      up.script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 97 })
      const runner = client.chat.completions.stream({ model: 'acme/chat-1', messages: hi })
      const final = await runner.finalChatCompletion()
      expect(final.choices[0]!.message.content).toBe('4200 + 42 equals 4242.')
      expect(final.model).toBe('acme/chat-1')
    })

    test('models.list reads the catalog: available models only, with per-token prices', async () => {
      const page = await client.models.list()
      expect(page.data.map((m) => m.id)).toEqual(['acme/chat-1'])
      expect(page.data[0]).toMatchObject({ object: 'model', owned_by: 'acme', pricing: { input: 1.5e-7, output: 6e-7, currency: 'USD' } })
      expect(typeof page.data[0]!.created).toBe('number')
      const models: string[] = []
      for await (const m of client.models.list()) models.push(m.id)
      expect(models).toEqual(['acme/chat-1'])
    })

    test('a failure mid-stream throws an APIError from the SDK’s iterator, without upstream detail', async () => {
      const sse = fixtureSse('openai-chat', 'stream-text-usage.sse')
      up.script({ kind: 'drop', text: sse, bytes: sse.indexOf('data:', 1200) })
      const stream = await client.chat.completions.create({ model: 'acme/chat-1', stream: true, messages: hi })
      let text = ''
      const err = await failure(
        (async () => {
          for await (const c of stream) text += c.choices[0]?.delta?.content ?? ''
        })(),
      )
      expect(err).toBeInstanceOf(OpenAI.APIError)
      expect(err.code).toBe('UPSTREAM_ERROR')
      expect(text.length).toBeGreaterThan(0)
      for (const s of UPSTREAM_SECRETS) expect(String(err.message).toLowerCase()).not.toContain(s.toLowerCase())
    })

    test('each refusal is the SDK’s error class with our code and status', async () => {
      const auth = await failure(clientFor('sk-wrong').chat.completions.create({ model: 'acme/chat-1', messages: hi }))
      expect(auth).toBeInstanceOf(OpenAI.AuthenticationError)
      expect(auth).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
      expect(auth.requestID).toMatch(/^req_/)
      expect(await failure(clientFor('sk-wrong').models.list())).toBeInstanceOf(OpenAI.AuthenticationError)

      const invalid = await failure(client.chat.completions.create({ model: 'acme/chat-1', messages: [], temperature: 1 }))
      expect(invalid).toBeInstanceOf(OpenAI.UnprocessableEntityError)
      expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION_FAILED', param: 'messages' })
      const hot = await failure(client.chat.completions.create({ model: 'acme/chat-1', messages: hi, temperature: 3 }))
      expect(hot).toBeInstanceOf(OpenAI.UnprocessableEntityError)
      expect(hot.message).toContain('temperature')

      for (const model of ['acme/none', 'acme/old']) {
        const unavailable = await failure(client.chat.completions.create({ model, messages: hi }))
        expect(unavailable).toBeInstanceOf(OpenAI.APIError)
        expect(unavailable).toMatchObject({ status: 503, code: 'MODEL_UNAVAILABLE' })
      }

      up.script({ kind: 'status', status: 500 })
      const upstream = await failure(client.chat.completions.create({ model: 'acme/chat-1', messages: hi }))
      expect(upstream).toBeInstanceOf(OpenAI.InternalServerError)
      expect(upstream).toMatchObject({ status: 502, code: 'UPSTREAM_ERROR' })
      up.script({ kind: 'status', status: 500 })
      const upstreamStream = await failure(client.chat.completions.create({ model: 'acme/chat-1', messages: hi, stream: true }))
      expect(upstreamStream).toMatchObject({ status: 502, code: 'UPSTREAM_ERROR' })

      const poor = await gw.user(0.000001)
      const broke = await failure(clientFor(poor.key).chat.completions.create({ model: 'acme/chat-1', messages: hi }))
      expect(broke).toBeInstanceOf(OpenAI.APIError)
      expect(broke).toMatchObject({ status: 402, code: 'PAYMENT_REQUIRED' })
      expect(broke.message).toContain('balance')
      const capped = await gw.user(1, { limit: 0.000001 })
      const overLimit = await failure(clientFor(capped.key).chat.completions.create({ model: 'acme/chat-1', messages: hi }))
      expect(overLimit).toMatchObject({ status: 402, code: 'PAYMENT_REQUIRED' })
      expect(overLimit.message).toContain('limit')

      const limited = await gw.user(1, { rpm: 1 })
      const lc = clientFor(limited.key)
      await lc.chat.completions.create({ model: 'acme/chat-1', messages: hi })
      const rate = await failure(lc.chat.completions.create({ model: 'acme/chat-1', messages: hi }))
      expect(rate).toBeInstanceOf(OpenAI.RateLimitError)
      expect(rate).toMatchObject({ status: 429, code: 'RATE_LIMITED' })
      expect(Number(rate.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    })
  })
}
