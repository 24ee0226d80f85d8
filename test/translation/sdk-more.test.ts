// More of the official SDKs against translated upstreams: streamed tool use and thinking into
// @anthropic-ai/sdk (and the thinking's proof back to its own vendor), a streamed argument-less
// call into openai's responses API, count_tokens, the openai chat stream helpers over an
// Anthropic upstream, and each SDK's error classes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { startTestGateway, type TestGateway, perProtocolCatalog } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureSse } from '../helpers/fixtures.ts'

const PROTOS = ['openai-chat', 'anthropic-messages', 'openai-responses'] as const
type Proto = (typeof PROTOS)[number]

describe('official SDKs over translated upstreams', () => {
  const ups = {} as Record<Proto, FakeUpstream>
  let gw: TestGateway
  let anthropic: Anthropic
  let openai: OpenAI
  beforeAll(async () => {
    for (const p of PROTOS) ups[p] = startFakeUpstream()
    const catalog = perProtocolCatalog(ups, { upstreamModel: 'up-model' })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    const u = await gw.user(5, { rpm: 1_000 })
    const base = gw.listen()
    anthropic = new Anthropic({ baseURL: base, apiKey: u.key, maxRetries: 0 })
    openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: u.key, maxRetries: 0 })
  })
  afterAll(async () => {
    await gw.stop()
    for (const p of PROTOS) ups[p].stop()
  })

  test('anthropic messages.stream: parallel tool calls from a chat upstream arrive as parsed tool_use inputs', async () => {
    ups['openai-chat'].script({ kind: 'sse', text: fixtureSse('openai-chat', 'stream-tool-calls-two.sse'), chunkSize: 64 })
    const tools = [
      { name: 'secret_retrieval_tool', input_schema: { type: 'object' as const, properties: { password: { type: 'string' } } } },
    ]
    const stream = anthropic.messages.stream({
      model: 't/openai-chat',
      max_tokens: 200,
      tools,
      messages: [{ role: 'user', content: 'Get both' }],
    })
    const final = await stream.finalMessage()
    expect(final.stop_reason).toBe('tool_use')
    expect(final.content.map((b) => (b.type === 'tool_use' ? [b.id, b.input] : b.type))).toEqual([
      ['call_M26z19sncd7b4LBgzKRRbaUE', { password: 'mellon' }],
      ['call_KPXe5NX7IcKkaBUhc6dto2QV', { password: 'radiance' }],
    ])
    expect(final.usage).toMatchObject({ input_tokens: 75, output_tokens: 53 })
  })

  test('anthropic messages.stream: OpenAI encrypted reasoning arrives as a thinking block and goes back to a responses upstream intact', async () => {
    const sse = fixtureSse('openai-responses', 'stream-reasoning-encrypted-function-call.chunks.jsonl')
    const encrypted =
      /"type":"response.output_item.done","sequence_number":\d+,"output_index":0,"item":\{"id":"(rs_[^"]+)","type":"reasoning","encrypted_content":"([^"]+)"/.exec(
        sse,
      )!
    ups['openai-responses'].script({ kind: 'sse', text: sse, chunkSize: 128 })
    const tools = [
      {
        name: 'calculator',
        input_schema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string' } } },
      },
    ]
    const first = await anthropic.messages
      .stream({
        model: 't/openai-responses',
        max_tokens: 2_000,
        thinking: { type: 'enabled', budget_tokens: 1_024 },
        tools,
        messages: [{ role: 'user', content: 'Add 12 and 7' }],
      })
      .finalMessage()
    const thinking = first.content.find((b) => b.type === 'thinking') as Anthropic.ThinkingBlock
    expect(thinking.thinking.length).toBeGreaterThan(20)
    expect(thinking.signature).toBe(`tg1.o.${encrypted[1]}.${encrypted[2]}`)
    const use = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock
    expect(use.input).toEqual({ a: 12, b: 7, op: 'add' })

    ups['openai-responses'].script({ kind: 'sse', text: fixtureSse('openai-responses', 'stream-text.sse') })
    await anthropic.messages
      .stream({
        model: 't/openai-responses',
        max_tokens: 2_000,
        thinking: { type: 'enabled', budget_tokens: 1_024 },
        tools,
        messages: [
          { role: 'user', content: 'Add 12 and 7' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '19' }] },
        ],
      })
      .finalMessage()
    const sent = ups['openai-responses'].seen.at(-1)!.body
    expect(sent.input.map((i: any) => i.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output'])
    expect(sent.input[1]).toMatchObject({ id: encrypted[1], encrypted_content: encrypted[2] })
    expect(sent.include).toEqual(['reasoning.encrypted_content'])
  })

  test('openai responses.stream: an Anthropic tool call without arguments ends with parseable "{}"', async () => {
    ups['anthropic-messages'].script({
      kind: 'sse',
      text: fixtureSse('anthropic-messages', 'stream-text-then-tool-use-no-args.chunks.jsonl'),
      chunkSize: 50,
    })
    const stream = openai.responses.stream({
      model: 't/anthropic-messages',
      input: 'Update the list',
      tools: [{ type: 'function', name: 'updateIssueList', parameters: { type: 'object', properties: {} }, strict: false }],
    })
    const final = await stream.finalResponse()
    const call = final.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall
    expect(call).toMatchObject({ name: 'updateIssueList', arguments: '{}', status: 'completed' })
    expect(final.output_text).toBe("I'll update the issue list for you.")
    expect(new Set(final.output.map((o) => o.id)).size).toBe(final.output.length)
  })

  test('openai chat stream helpers over an Anthropic upstream: tool calls assembled, usage and finish reason', async () => {
    ups['anthropic-messages'].script({ kind: 'sse', text: fixtureSse('anthropic-messages', 'stream-tool-use-two.sse'), chunkSize: 70 })
    const stream = openai.chat.completions.stream({
      model: 't/anthropic-messages',
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Get both' }],
      tools: [
        {
          type: 'function',
          function: { name: 'secret_retrieval_tool', parameters: { type: 'object', properties: { password: { type: 'string' } } } },
        },
      ],
    })
    const final = await stream.finalChatCompletion()
    const msg = final.choices[0]!.message
    expect(msg.content).toBe("I'll retrieve the secrets for both passwords you provided.")
    expect(msg.tool_calls!.map((c) => (c.type === 'function' ? JSON.parse(c.function.arguments) : null))).toEqual([
      { password: 'mellon' },
      { password: 'radiance' },
    ])
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.usage).toMatchObject({ prompt_tokens: 416, completion_tokens: 109 })
  })

  test('anthropic messages.countTokens: counted by an Anthropic upstream, estimated for other upstreams or when it fails', async () => {
    ups['anthropic-messages'].script({ kind: 'json', body: { input_tokens: 1234 } })
    const native = await anthropic.messages.countTokens({
      model: 't/anthropic-messages',
      messages: [{ role: 'user', content: 'Hello there' }],
    })
    expect(native.input_tokens).toBe(1234)
    const seen = ups['anthropic-messages'].seen.at(-1)!
    expect(seen.path).toBe('/v1/messages/count_tokens')
    expect(seen.body).toEqual({ model: 'up-model', messages: [{ role: 'user', content: 'Hello there' }] })
    expect(seen.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/) // the SDK's own version, forwarded

    const text = 'word '.repeat(400)
    const estimated = await anthropic.messages.countTokens({ model: 't/openai-chat', messages: [{ role: 'user', content: text }] })
    expect(estimated.input_tokens).toBeGreaterThanOrEqual(500)
    expect(estimated.input_tokens).toBeLessThan(700)

    ups['anthropic-messages'].script({ kind: 'status', status: 500 })
    const fallback = await anthropic.messages.countTokens({ model: 't/anthropic-messages', messages: [{ role: 'user', content: text }] })
    expect(fallback.input_tokens).toBe(estimated.input_tokens)
  })

  test('error classes: each SDK recognises the gateway errors of its own protocol', async () => {
    const missing = await anthropic.messages
      .create({ model: 't/none', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e)
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError)
    expect(missing.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    const badKey = new Anthropic({ baseURL: anthropic.baseURL, apiKey: 'sk-wrong', maxRetries: 0 })
    expect(
      await badKey.messages.create({ model: 't/openai-chat', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e),
    ).toBeInstanceOf(Anthropic.AuthenticationError)

    const unknown = await openai.responses.create({ model: 't/none', input: 'x' }).catch((e) => e)
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError)
    expect(unknown.code).toBe('model_not_found')
    const stateful = await openai.responses.create({ model: 't/openai-chat', input: 'x', previous_response_id: 'resp_123' }).catch((e) => e)
    expect(stateful).toBeInstanceOf(OpenAI.BadRequestError)
    expect(stateful.param).toBe('previous_response_id')
    const invalid = await openai.responses.create({ model: 't/openai-chat', input: 'x', temperature: 9 }).catch((e) => e)
    expect(invalid).toBeInstanceOf(OpenAI.BadRequestError)
    expect(invalid.error.details.issues[0].path).toBe('temperature')
  })
})
