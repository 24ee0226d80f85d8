// Canonical request → chat-completions body, as tables: a thinking budget read as an effort,
// which max-tokens field that implies, tool choice, stream usage and the stop-sequence cap.
import { describe, expect, test } from 'bun:test'
import type { CRequest, CToolChoice } from '../../../src/core/canonical.ts'
import { chatBody, effortOf } from '../../../src/providers/openai-chat/request.ts'
import { request, TOOL } from '../canonical.ts'

const body = (over: Partial<CRequest>) => JSON.parse(chatBody(request(over), 'gpt-up'))

describe('openai-chat request', () => {
  test.each<[CRequest['reasoning'], string | undefined]>([
    [undefined, undefined],
    [{ effort: 'high' }, 'high'],
    [{}, 'medium'],
    [{ budgetTokens: 2_048 }, 'low'],
    [{ budgetTokens: 8_192 }, 'medium'],
    [{ budgetTokens: 8_193 }, 'high'],
  ])('reasoning %p is effort %p', (reasoning, effort) => {
    expect(effortOf(reasoning)).toBe(effort as ReturnType<typeof effortOf>)
  })

  test('with reasoning the cap is max_completion_tokens, otherwise max_tokens', () => {
    expect(body({ maxTokens: 50, reasoning: { effort: 'low' } })).toMatchObject({ max_completion_tokens: 50, reasoning_effort: 'low' })
    const plain = body({ maxTokens: 50 })
    expect([plain.max_tokens, plain.max_completion_tokens]).toEqual([50, undefined])
  })

  test.each<[CToolChoice, unknown]>([
    ['auto', 'auto'],
    ['none', 'none'],
    ['required', 'required'],
    [{ name: 'get_weather' }, { type: 'function', function: { name: 'get_weather' } }],
  ])('tool choice %p → %p', (toolChoice, expected) => {
    expect(body({ tools: [TOOL], toolChoice }).tool_choice).toEqual(expected)
  })

  test('streams ask for usage; at most 4 stop sequences; system text first', () => {
    const b = body({ stream: true, stop: ['a', 'b', 'c', 'd', 'e'], system: [{ type: 'text', text: 'be brief' }] })
    expect(b.stream_options).toEqual({ include_usage: true })
    expect(b.stop).toEqual(['a', 'b', 'c', 'd'])
    expect(b.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ])
  })

  test('a mid-conversation system message is a system message at its position', () => {
    const b = body({
      system: [{ type: 'text', text: 'top' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'system',
          content: [
            { type: 'text', text: 'x' },
            { type: 'text', text: 'y' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'system', content: [{ type: 'text', text: '' }] },
      ],
    })
    expect(b.messages).toEqual([
      { role: 'system', content: 'top' },
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'x\n\ny' },
      { role: 'assistant', content: 'ok' },
    ])
  })
})
