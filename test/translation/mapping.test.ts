// What crosses between protocols, checked on the pure mappers (no gateway): inbound body →
// canonical → upstream body, and upstream answer → canonical → client answer. Each case names
// the fidelity rule it holds (docs/translation.md).
import { describe, expect, test } from 'bun:test'
import type { CRequest } from '../../src/core/canonical.ts'
import { promptChars } from '../../src/core/prompt-size.ts'
import { decodeChat } from '../../src/protocols/chat/decode.ts'
import { encodeChat } from '../../src/protocols/chat/encode.ts'
import { chatStreamEncoder } from '../../src/protocols/chat/stream-encoder.ts'
import { decodeMessages } from '../../src/protocols/messages/decode.ts'
import { encodeMessage } from '../../src/protocols/messages/encode.ts'
import { decodeResponses } from '../../src/protocols/responses/decode.ts'
import { encodeResponse } from '../../src/protocols/responses/encode.ts'
import { responsesStreamEncoder } from '../../src/protocols/responses/stream-encoder.ts'
import { anthropicAdapter } from '../../src/providers/anthropic-messages/adapter.ts'
import { openAiChatAdapter } from '../../src/providers/openai-chat/adapter.ts'
import { openAiResponsesAdapter } from '../../src/providers/openai-responses/adapter.ts'
import { translateTransform } from '../../src/inference/stream-translate.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'
import { fixtureJson, fixtureSse } from '../helpers/fixtures.ts'

const anthropic = (r: CRequest) => JSON.parse(anthropicAdapter.body(r, 'up', 1_000))
const chat = (r: CRequest) => JSON.parse(openAiChatAdapter.body(r, 'up', 1_000))
const responses = (r: CRequest) => JSON.parse(openAiResponsesAdapter.body(r, 'up', 1_000))
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const PDF = Buffer.from('%PDF-1.4 tiny').toString('base64')

describe('requests: media', () => {
  test('a responses data-URL image reaches Anthropic as a base64 source; an https image as a url source', () => {
    const r = decodeResponses({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
            { type: 'input_image', image_url: 'https://img.example/cat.png' },
          ],
        },
      ],
    } as any)
    expect(anthropic(r).messages[0].content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'url', url: 'https://img.example/cat.png' } },
    ])
    expect(chat(r).messages[0].content[0]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } })
  })

  test('a PDF document crosses as a file part: chat file_data, responses input_file, and back to an Anthropic document', () => {
    const m = decodeMessages({
      model: 'm',
      max_tokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', title: 'a.pdf', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
            { type: 'text', text: 'Sum up' },
          ],
        },
      ],
    } as any)
    expect(chat(m).messages[0].content[0]).toEqual({
      type: 'file',
      file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' },
    })
    expect(responses(m).input[0].content[0]).toEqual({
      type: 'input_file',
      file_data: `data:application/pdf;base64,${PDF}`,
      filename: 'a.pdf',
    })
    const c = decodeChat({
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'b.pdf' } }] },
      ],
    } as any)
    expect(anthropic(c).messages[0].content[0]).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF },
      title: 'b.pdf',
    })
  })

  test('images inside tool results: responses output parts; chat gets the text in the tool message and the image right after', () => {
    const m = decodeMessages({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shot', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [
                { type: 'text', text: 'screen:' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              ],
            },
          ],
        },
      ],
    } as any)
    expect(responses(m).input[1]).toEqual({
      type: 'function_call_output',
      call_id: 'toolu_1',
      output: [
        { type: 'input_text', text: 'screen:' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
      ],
    })
    expect(chat(m).messages.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_1', content: 'screen:' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
    ])
  })

  test('inline media does not inflate the reservation: a 1 MB image counts like ~2k tokens, not 350k', () => {
    const big = 'A'.repeat(1_400_000)
    const chars = promptChars({
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: big } }] }],
    })
    expect(chars).toBeGreaterThan(6_400)
    expect(chars).toBeLessThan(40_000)
    expect(promptChars({ messages: [{ role: 'user', content: 'x'.repeat(3_000) }] })).toBeGreaterThan(3_000) // ordinary text counts in full
  })
})

describe('requests: tools', () => {
  test('a chat tool id Anthropic would refuse is mapped the same way in tool_use and tool_result', () => {
    const c = decodeChat({
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        },
        { role: 'tool', tool_call_id: 'functions.get_weather:0', content: 'sunny' },
      ],
    } as any)
    const [, call, result] = anthropic(c).messages
    expect(call.content[0].id).toMatch(/^[a-zA-Z0-9_-]+$/)
    expect(call.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: {} })
    expect(result.content[0]).toEqual({ type: 'tool_result', tool_use_id: call.content[0].id, content: 'sunny' })
    // Empty argument text becomes "{}" for the OpenAI protocols.
    expect(responses(c).input[1]).toEqual({
      type: 'function_call',
      call_id: 'functions.get_weather:0',
      name: 'get_weather',
      arguments: '{}',
    })
  })

  test('parallel_tool_calls false without tool_choice still reaches Anthropic; strict tools keep strict', () => {
    const c = decodeChat({
      model: 'm',
      parallel_tool_calls: false,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' }, strict: true } }],
    } as any)
    const a = anthropic(c)
    expect(a.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true })
    expect(a.tools[0]).toEqual({ name: 'f', input_schema: { type: 'object' }, strict: true })
    expect(responses(c).tools[0]).toMatchObject({ name: 'f', strict: true })
    expect(responses(c).parallel_tool_calls).toBe(false)
  })

  test('tool_choice none / required / named map to each protocol', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }]
    const named = decodeMessages({
      model: 'm',
      max_tokens: 5,
      tools,
      tool_choice: { type: 'tool', name: 'f', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content: 'x' }],
    } as any)
    expect(chat(named)).toMatchObject({ tool_choice: { type: 'function', function: { name: 'f' } }, parallel_tool_calls: false })
    expect(responses(named).tool_choice).toEqual({ type: 'function', name: 'f' })
    const none = decodeResponses({ model: 'm', input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: 'none' } as any)
    expect(anthropic(none).tool_choice).toEqual({ type: 'none' })
    const any = decodeResponses({ model: 'm', input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: 'required' } as any)
    expect(anthropic(any).tool_choice).toEqual({ type: 'any' })
  })
})

describe('requests: reasoning, caching, limits, identity', () => {
  test('reasoning effort words: none turns thinking off; minimal is low; xhigh is high', () => {
    const effort = (e: string) => anthropic(decodeResponses({ model: 'm', input: 'x', reasoning: { effort: e } } as any)).thinking
    expect(effort('none')).toBeUndefined()
    expect(effort('minimal')).toEqual({ type: 'enabled', budget_tokens: 1_024 })
    expect(effort('medium')).toEqual({ type: 'enabled', budget_tokens: 4_096 })
    expect(effort('xhigh')).toEqual({ type: 'enabled', budget_tokens: 16_384 })
    expect(
      anthropic(decodeChat({ model: 'm', reasoning_effort: 'minimal', messages: [{ role: 'user', content: 'x' }] } as any)).thinking,
    ).toEqual({ type: 'enabled', budget_tokens: 1_024 })
  })

  test("an OpenAI temperature above Anthropic's maximum is sent as 1", () => {
    expect(anthropic(decodeChat({ model: 'm', temperature: 1.7, messages: [{ role: 'user', content: 'x' }] } as any)).temperature).toBe(1)
    expect(anthropic(decodeChat({ model: 'm', temperature: 0.4, messages: [{ role: 'user', content: 'x' }] } as any)).temperature).toBe(0.4)
  })

  test('thinking on Anthropic drops temperature, top_p and top_k and raises max_tokens above the budget', () => {
    const r = decodeChat({
      model: 'm',
      reasoning_effort: 'high',
      temperature: 0.3,
      top_p: 0.5,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'x' }],
    } as any)
    const a = anthropic(r)
    expect(a).toMatchObject({ max_tokens: 16_385, thinking: { type: 'enabled', budget_tokens: 16_384 } })
    expect(a.temperature).toBeUndefined()
    expect(a.top_p).toBeUndefined()
  })

  test('a tool-use turn whose thinking could not come back is served without thinking (Anthropic would refuse it)', () => {
    const loop = (extra: Record<string, unknown>[]) =>
      decodeChat({
        model: 'm',
        reasoning_effort: 'medium',
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
          ...extra,
        ],
      } as any)
    expect(anthropic(loop([])).thinking).toBeUndefined()
    // A later plain answer ends the tool loop: thinking is allowed again.
    expect(
      anthropic(
        loop([
          { role: 'assistant', content: 'It is sunny.' },
          { role: 'user', content: 'thanks' },
        ]),
      ).thinking,
    ).toEqual({ type: 'enabled', budget_tokens: 4_096 })
    const signed = decodeMessages({
      model: 'm',
      max_tokens: 8_000,
      thinking: { type: 'enabled', budget_tokens: 2_000 },
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'need tool', signature: 'sig' },
            { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    } as any)
    expect(anthropic(signed).thinking).toEqual({ type: 'enabled', budget_tokens: 2_000 })
  })

  test('a thinking budget becomes an effort (chat reasoning_effort, responses reasoning) and chat gets max_completion_tokens', () => {
    const m = decodeMessages({
      model: 'm',
      max_tokens: 20_000,
      thinking: { type: 'enabled', budget_tokens: 10_000 },
      messages: [{ role: 'user', content: 'x' }],
    } as any)
    expect(chat(m)).toMatchObject({ reasoning_effort: 'high', max_completion_tokens: 20_000 })
    expect(chat(m).max_tokens).toBeUndefined()
    expect(responses(m)).toMatchObject({
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 20_000,
    })
  })

  test('OpenRouter-style cache_control on chat parts, system and tools reaches Anthropic as cache_control', () => {
    const c = decodeChat({
      model: 'm',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Long rules', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Big doc', cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Question' },
          ],
        },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } }, cache_control: { type: 'ephemeral' } }],
    } as any)
    const a = anthropic(c)
    expect(a.system).toEqual([{ type: 'text', text: 'Long rules', cache_control: { type: 'ephemeral', ttl: '1h' } }])
    expect(a.messages[0].content).toEqual([
      { type: 'text', text: 'Big doc', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Question' },
    ])
    expect(a.tools[0].cache_control).toEqual({ type: 'ephemeral' })
    // OpenAI caches by itself: the hints are not sent there.
    expect(JSON.stringify(chat(c))).not.toContain('cache_control')
    expect(chat(c).messages[0]).toEqual({ role: 'system', content: 'Long rules' })
  })

  test('stop sequences: at most 4 reach chat, none reach responses (no such field); max_output_tokens is at least 16', () => {
    const m = decodeMessages({
      model: 'm',
      max_tokens: 5,
      stop_sequences: ['a', 'b', 'c', 'd', 'e'],
      messages: [{ role: 'user', content: 'x' }],
    } as any)
    expect(chat(m).stop).toEqual(['a', 'b', 'c', 'd'])
    expect(responses(m).stop).toBeUndefined()
    expect(responses(m).max_output_tokens).toBe(16)
  })

  test('structured output: JSON schema crosses to Anthropic output_config and back to chat response_format', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }
    const c = decodeChat({
      model: 'm',
      response_format: { type: 'json_schema', json_schema: { name: 'thing', schema, strict: true } },
      messages: [{ role: 'user', content: 'x' }],
    } as any)
    expect(anthropic(c).output_config).toEqual({ format: { type: 'json_schema', schema } })
    const m = decodeMessages({
      model: 'm',
      max_tokens: 5,
      output_config: { format: { type: 'json_schema', schema } },
      messages: [{ role: 'user', content: 'x' }],
    } as any)
    expect(chat(m).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema, strict: true } })
    expect(responses(m).text).toEqual({ format: { type: 'json_schema', name: 'output', schema, strict: true } })
  })

  test('the end-user id crosses: chat user ↔ messages metadata.user_id ↔ responses user', () => {
    expect(anthropic(decodeChat({ model: 'm', user: 'u-1', messages: [{ role: 'user', content: 'x' }] } as any)).metadata).toEqual({
      user_id: 'u-1',
    })
    expect(
      responses(
        decodeMessages({ model: 'm', max_tokens: 5, metadata: { user_id: 'u-2' }, messages: [{ role: 'user', content: 'x' }] } as any),
      ).user,
    ).toBe('u-2')
  })
})

describe('answers', () => {
  test('a responses refusal reaches chat as message.refusal (content null, finish stop) and messages as stop_reason refusal', () => {
    const r = openAiResponsesAdapter.parseResponse(fixtureJson('openai-responses', 'json-refusal.json'))
    const c = encodeChat(r, 'id', 'm', 0)
    expect(c.choices[0]).toMatchObject({
      message: { content: null, refusal: "I'm very sorry, but I can't assist with that." },
      finish_reason: 'stop',
    })
    expect(encodeMessage(r, 'id', 'm')).toMatchObject({
      stop_reason: 'refusal',
      content: [{ type: 'text', text: "I'm very sorry, but I can't assist with that." }],
    })
    const back = encodeResponse(openAiChatAdapter.parseResponse(fixtureJson('openai-chat', 'json-refusal.json')), {
      id: 'resp_x',
      model: 'm',
      createdAt: 0,
    })
    expect(back.output).toEqual([
      {
        id: 'msg_x_0',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: "I'm very sorry, but I can't assist with that request." }],
      },
    ])
  })

  test('Anthropic redacted thinking rides to a responses client in encrypted_content and returns to Anthropic intact, never to OpenAI', () => {
    const answer = anthropicAdapter.parseResponse(fixtureJson('anthropic-messages', 'json-redacted-thinking.json'))
    const out = encodeResponse(answer, { id: 'resp_x', model: 'm', createdAt: 0 }).output as any[]
    const data = fixtureJson('anthropic-messages', 'json-redacted-thinking.json').content[0].data
    expect(out[0]).toMatchObject({ type: 'reasoning', summary: [], encrypted_content: `tg1.r.${data}` })
    const next = decodeResponses({ model: 'm', input: [{ role: 'user', content: 'q' }, out[0], { role: 'user', content: 'more' }] } as any)
    expect(anthropic(next).messages[1].content[0]).toEqual({ type: 'redacted_thinking', data })
    expect(responses(next).input.some((i: any) => i.type === 'reasoning')).toBe(false)
    const passthrough = JSON.parse(openAiResponsesAdapter.passthroughBody({ model: 'm', input: [out[0]] }, 'up', false))
    expect(passthrough.input).toEqual([])
  })

  test('a tool call without arguments reaches chat and responses clients as "{}" (JSON and stream)', () => {
    const r = anthropicAdapter.parseResponse(fixtureJson('anthropic-messages', 'json-text-then-tool-use-no-args.json'))
    expect(encodeChat(r, 'id', 'm', 0).choices[0]!.message.tool_calls).toEqual([
      { id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', type: 'function', function: { name: 'updateIssueList', arguments: '{}' } },
    ])
    const sse = fixtureSse('anthropic-messages', 'stream-text-then-tool-use-no-args.chunks.jsonl')
    const run = (enc: Parameters<typeof translateTransform>[1]) => {
      const t = translateTransform(anthropicAdapter.streamDecoder(), enc)
      let out = ''
      for (const ev of new SseParser().push(sse)) out += t.push(ev)
      expect(t.complete()).toBe(true)
      return out + t.close('{}')
    }
    const chatOut = run(chatStreamEncoder('c', 'm', 0))
    const args = [...chatOut.matchAll(/"arguments":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1])
    expect(args).toEqual(['', '{}'])
    const respOut = run(responsesStreamEncoder({ id: 'resp_x', model: 'm', createdAt: 0 }))
    expect(respOut).toContain('"type":"response.function_call_arguments.done","sequence_number":')
    expect(respOut).toMatch(
      /"type":"response.function_call_arguments.done","sequence_number":\d+,"item_id":"fc_x_1","output_index":1,"arguments":"\{\}"/,
    )
  })

  test('a trailing [DONE] sentinel (sent by some compatible servers) does not break Anthropic or responses streams', () => {
    for (const [adapter, sse, enc] of [
      [anthropicAdapter, fixtureSse('anthropic-messages', 'stream-text.sse'), chatStreamEncoder('c', 'm', 0)],
      [openAiResponsesAdapter, fixtureSse('openai-responses', 'stream-text.sse'), chatStreamEncoder('c', 'm', 0)],
    ] as const) {
      const t = translateTransform(adapter.streamDecoder(), enc)
      let out = ''
      for (const ev of new SseParser().push(`${sse}data: [DONE]\n\n`)) out += t.push(ev)
      expect(t.complete()).toBe(true)
      expect(out + t.close('{}')).toEndWith('data: [DONE]\n\n')
    }
  })
})
