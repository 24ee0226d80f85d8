// The official SDKs, changing only the base URL: @anthropic-ai/sdk (messages.create,
// messages.stream, a tool-use round trip) and openai's responses API (create, stream, a
// function_call → function_call_output follow-up with store false) — each against an upstream
// of its own protocol and of another.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { startTestGateway, type TestGateway, perProtocolCatalog } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse, fixtureText } from '../helpers/fixtures.ts'
import { describeServices } from '../helpers/services.ts'

const PROTOS = ['openai-chat', 'anthropic-messages', 'openai-responses'] as const

describeServices('official SDKs end to end', () => {
  const ups = {} as Record<(typeof PROTOS)[number], FakeUpstream>
  let gw: TestGateway
  let anthropic: Anthropic
  let openai: OpenAI
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const catalog = perProtocolCatalog(ups, { upstreamModel: 'up-model' })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, catalog)
    const u = await gw.user(5, { rpm: 1_000 })
    const base = gw.listen()
    anthropic = new Anthropic({ baseURL: base, apiKey: u.key, maxRetries: 0 })
    openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: u.key, maxRetries: 0 })
  })
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  })

  test('anthropic messages.create, native and translated from chat', async () => {
    ups['anthropic-messages'].script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    const m = await anthropic.messages.create({
      model: 't/anthropic-messages',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello' }],
    })
    expect(m.model).toBe('t/anthropic-messages')
    expect(m.content[0]!.type).toBe('text')
    expect((m.content[0] as Anthropic.TextBlock).text).toStartWith("Hello! I'm doing well")
    expect(m.usage.output_tokens).toBe(29)
    expect((m as any).svc).toMatchObject({ currency: 'credits', serviceMode: 'performance' })
    expect(ups['anthropic-messages'].seen.at(-1)!.headers['anthropic-version']).toBeDefined()

    ups['openai-chat'].script({ kind: 'json', body: fixtureText('openai-chat', 'json-text.json') })
    const t = await anthropic.messages.create({
      model: 't/openai-chat',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello' }],
    })
    expect(t.stop_reason).toBe('end_turn')
    expect(t.usage).toMatchObject({ input_tokens: 16, output_tokens: 363 })
    // The SDK's request id reads `request-id`: the call's own id, as x-request-id says it.
    ups['anthropic-messages'].script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    const { request_id, response } = await anthropic.messages
      .create({ model: 't/anthropic-messages', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse()
    expect(request_id).toBe(response.headers.get('x-request-id'))
    expect(request_id).toStartWith('req_')
    const refused = await anthropic.messages
      .create({ model: 'no/such', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e)
    expect(refused).toBeInstanceOf(Anthropic.APIError)
    expect(refused.requestID).toStartWith('req_')
    expect(ups['openai-chat'].seen.at(-1)!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' })
  })

  test('anthropic messages.stream: text through a responses upstream, final message assembled', async () => {
    ups['openai-responses'].script({ kind: 'sse', text: fixtureSse('openai-responses', 'stream-text.sse'), chunkSize: 40 })
    const stream = anthropic.messages.stream({
      model: 't/openai-responses',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Add them' }],
    })
    let text = ''
    stream.on('text', (d) => (text += d))
    const final = await stream.finalMessage()
    expect(text).toBe('4200 + 42 equals 4242.')
    expect(final.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['4200 + 42 equals 4242.'])
    expect(final.stop_reason).toBe('end_turn')
    expect(final.usage.output_tokens).toBeGreaterThan(0)
  })

  test('anthropic tool-use round trip through a chat upstream: tool_use out, tool_result back', async () => {
    ups['openai-chat'].script({ kind: 'json', body: fixtureText('openai-chat', 'json-tool-calls-two.json') })
    const tools = [
      { name: 'secret_retrieval_tool', input_schema: { type: 'object' as const, properties: { password: { type: 'string' } } } },
    ]
    const first = await anthropic.messages.create({
      model: 't/openai-chat',
      max_tokens: 200,
      tools,
      messages: [{ role: 'user', content: 'Get both secrets' }],
    })
    expect(first.stop_reason).toBe('tool_use')
    const uses = first.content.filter((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock[]
    expect(uses.map((u) => u.input)).toEqual([{ password: 'mellon' }, { password: 'radiance' }])
    ups['openai-chat'].script({ kind: 'json', body: fixtureText('openai-chat', 'json-text.json') })
    await anthropic.messages.create({
      model: 't/openai-chat',
      max_tokens: 200,
      tools,
      messages: [
        { role: 'user', content: 'Get both secrets' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: uses.map((u, i) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: `secret-${i}` })) },
      ],
    })
    const sent = ups['openai-chat'].seen.at(-1)!.body
    expect(sent.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool'])
    expect(sent.messages[1].tool_calls.map((c: any) => JSON.parse(c.function.arguments))).toEqual([
      { password: 'mellon' },
      { password: 'radiance' },
    ])
    expect(sent.messages[2]).toEqual({ role: 'tool', tool_call_id: uses[0]!.id, content: 'secret-0' })
  })

  test('openai responses.create native (id and model are ours) and translated from anthropic', async () => {
    ups['openai-responses'].script({ kind: 'json', body: fixtureText('openai-responses', 'json-text.json') })
    const r = await openai.responses.create({ model: 't/openai-responses', input: 'Add them', store: false })
    expect(r.id).toMatch(/^resp_/)
    expect(r.id).not.toContain('0bee99a5')
    expect(r.model).toBe('t/openai-responses')
    expect(r.output_text).toBe('4200 + 42 equals 4242.')
    expect((r as any).svc.currency).toBe('credits')

    ups['anthropic-messages'].script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-max-tokens.json') })
    const cut = await openai.responses.create({ model: 't/anthropic-messages', input: 'Write a lot', max_output_tokens: 5 })
    expect(cut.status).toBe('incomplete')
    expect(cut.incomplete_details?.reason).toBe('max_output_tokens')
    expect(cut.usage?.output_tokens).toBeGreaterThan(0)
  })

  test('openai responses.stream through a chat upstream: events in order with sequence numbers', async () => {
    ups['openai-chat'].script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-text-usage.sse'), chunkSize: 80 })
    const stream = openai.responses.stream({ model: 't/openai-chat', input: 'Add them' })
    const types: string[] = []
    const seqs: number[] = []
    for await (const ev of stream) {
      types.push(ev.type)
      seqs.push(ev.sequence_number)
    }
    const final = await stream.finalResponse()
    expect(final.output_text).toBe('4200 + 42 equals 4242.')
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ])
    expect(types.at(-1)).toBe('response.completed')
    expect(types).toContain('response.output_text.done')
    expect(seqs).toEqual(seqs.map((_, i) => i))
    expect(final.id).toMatch(/^resp_/)
  })

  test('openai responses function_call → function_call_output follow-up (store false) through anthropic', async () => {
    ups['anthropic-messages'].script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-tool-use-two.json') })
    const tools = [
      {
        type: 'function' as const,
        name: 'secret_retrieval_tool',
        parameters: { type: 'object', properties: { password: { type: 'string' } } },
        strict: false,
      },
    ]
    const first = await openai.responses.create({ model: 't/anthropic-messages', input: 'Get both', tools, store: false })
    const calls = first.output.filter((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall[]
    expect(calls.map((c) => JSON.parse(c.arguments))).toEqual([{ password: 'mellon' }, { password: 'radiance' }])
    ups['anthropic-messages'].script({ kind: 'json', body: fixtureText('anthropic-messages', 'json-text.json') })
    const second = await openai.responses.create({
      model: 't/anthropic-messages',
      store: false,
      tools,
      input: [
        { role: 'user', content: 'Get both' },
        ...first.output,
        ...calls.map((c) => ({ type: 'function_call_output' as const, call_id: c.call_id, output: `value for ${c.call_id}` })),
      ] as any,
    })
    expect(second.output_text).toStartWith('Hello!')
    const sent = ups['anthropic-messages'].seen.at(-1)!.body
    expect(sent.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(sent.messages[1].content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id)).toEqual(calls.map((c) => c.call_id))
    expect(sent.messages[2].content.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result'])
  })
})
