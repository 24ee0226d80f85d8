// Anthropic message JSON → canonical response on recorded answers: blocks map one to one onto
// parts (thinking keeps its proof), input_tokens already excludes cache reads.
import { describe, expect, test } from 'bun:test'
import { parseAnthropicResponse } from '../../../src/providers/anthropic-messages/response.ts'
import { fixtureJson } from '../../helpers/fixtures.ts'
import { upstreamJsonView } from '../../translation/fixture-views.ts'

const answer = (file: string) => fixtureJson('anthropic-messages', file)

describe('anthropic-messages response', () => {
  test('thinking with its signature, text, and a tool use without input as "{}"', () => {
    const json = answer('json-thinking-tool-use.json')
    const view = upstreamJsonView('anthropic-messages', json)
    const r = parseAnthropicResponse(json)
    expect(r.content).toEqual([
      { type: 'reasoning', text: view.reasoning, signature: json.content[0].signature, origin: 'anthropic-messages' },
      { type: 'text', text: view.text },
      { type: 'tool_call', id: 'toolu_01YGzqpRE16Vricda3Aqcejo', name: 'get_user_country', arguments: '{}' },
    ])
    expect(r.stopReason).toBe('tool_use')
    expect(r.id).toBe('msg_01WvueFjZVbHcj4H4zUzeGv2')
  })

  test('redacted thinking keeps its opaque data and no text', () => {
    const json = answer('json-redacted-thinking.json')
    const r = parseAnthropicResponse(json)
    expect(r.content[0]).toEqual({ type: 'reasoning', text: '', redacted: json.content[0].data, origin: 'anthropic-messages' })
    expect(r.content.slice(1).map((p) => p.type)).toEqual(['text'])
  })

  test('cache reads are reported apart from input', () => {
    const r = parseAnthropicResponse(answer('json-cache-read.json'))
    expect(r.usage).toEqual({ inputTokens: 12, outputTokens: 350, cacheReadTokens: 4167, cacheWriteTokens: 0, reasoningTokens: 0 })
  })

  test('thinking tokens are read from output_tokens_details when reported', () => {
    const r = parseAnthropicResponse({
      content: [],
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 40, output_tokens_details: { thinking_tokens: 30 } },
    })
    expect(r.usage).toEqual({ inputTokens: 5, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 30 })
  })
})
