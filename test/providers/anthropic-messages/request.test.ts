// Canonical request → Anthropic messages body, as tables: tool choice, tool ids Anthropic
// accepts, the thinking budget and what it turns off, turn merging.
import { describe, expect, test } from 'bun:test'
import type { CToolChoice } from '../../../src/core/canonical.ts'
import { anthropicBody, anthropicToolId } from '../../../src/providers/anthropic-messages/request.ts'
import { request, TOOL } from '../canonical.ts'

const body = (over: Parameters<typeof request>[0], defaultMaxTokens = 1_000) =>
  JSON.parse(anthropicBody(request(over), 'claude-up', defaultMaxTokens))

describe('anthropic-messages request', () => {
  test.each<[CToolChoice | undefined, boolean | undefined, unknown]>([
    [undefined, undefined, undefined],
    ['auto', undefined, { type: 'auto' }],
    ['none', undefined, { type: 'none' }],
    ['required', undefined, { type: 'any' }],
    [{ name: 'get_weather' }, undefined, { type: 'tool', name: 'get_weather' }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }],
  ])('tool choice %p with parallel calls %p → %p', (toolChoice, parallelToolCalls, expected) => {
    expect(body({ tools: [TOOL], toolChoice, parallelToolCalls }).tool_choice).toEqual(expected)
  })

  test('tool ids: Anthropic-shaped ids pass; others map deterministically into its alphabet', () => {
    expect(anthropicToolId('toolu_01AbC-x')).toBe('toolu_01AbC-x')
    const mapped = anthropicToolId('functions.get:0')
    expect(mapped).toMatch(/^functions_get_0_[0-9a-f]{8}$/)
    expect(anthropicToolId('functions.get:0')).toBe(mapped)
    expect(anthropicToolId('functions.get:1')).not.toBe(mapped)
  })

  test('a thinking budget per effort; max_tokens above it; temperature, top_p and top_k left out', () => {
    const b = body({ reasoning: { effort: 'low' }, maxTokens: 500, temperature: 0.5, topP: 0.9, topK: 5 })
    expect(b.thinking).toEqual({ type: 'enabled', budget_tokens: 1_024 })
    expect(b.max_tokens).toBe(1_025)
    expect([b.temperature, b.top_p, b.top_k]).toEqual([undefined, undefined, undefined])
    expect(body({ reasoning: {} }).thinking.budget_tokens).toBe(4_096)
    expect(body({ reasoning: { budgetTokens: 100 } }).thinking.budget_tokens).toBe(1_024)
  })

  test('without thinking: the default max_tokens, temperature capped at 1', () => {
    expect(body({ temperature: 1.7 }, 777)).toMatchObject({ model: 'claude-up', max_tokens: 777, temperature: 1 })
  })

  test('consecutive same-role turns merge; tool results come first in a user turn', () => {
    const b = body({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'user', content: [{ type: 'text', text: 'b' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"x":1}' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'and then?' },
            { type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'ok' }] },
          ],
        },
      ],
    })
    expect(b.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'f', input: { x: 1 } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'ok' },
          { type: 'text', text: 'and then?' },
        ],
      },
    ])
  })
})
