// Canonical request → Anthropic messages body, as tables: tool choice, tool ids Anthropic
// accepts, the thinking budget and what it turns off, turn merging, system message placement.
import { describe, expect, test } from 'bun:test'
import type { CacheHint, CMessage, CToolChoice } from '../../../src/core/canonical.ts'
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

  describe('system messages, placed as Anthropic allows (docs/translation.md "Mid-conversation system messages")', () => {
    const u = (t: string): CMessage => ({ role: 'user', content: [{ type: 'text', text: t }] })
    const a = (t: string): CMessage => ({ role: 'assistant', content: [{ type: 'text', text: t }] })
    const s = (t: string, cache?: CacheHint): CMessage => ({
      role: 'system',
      content: [{ type: 'text', text: t, ...(cache ? { cache } : {}) }],
    })
    const call: CMessage = { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }] }
    const result: CMessage = { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }] }
    /** The top-level system text (`top` plus anything hoisted) and the roles, system messages with their text. */
    const shape = (messages: CMessage[]) => {
      const b = body({ messages, system: [{ type: 'text', text: 'top' }] })
      return {
        system: b.system,
        turns: b.messages.map((m: { role: string; content: unknown }) => (m.role === 'system' ? `system:${m.content}` : m.role)),
      }
    }

    test.each<[string, CMessage[], { system: string; turns: string[] }]>([
      [
        'after a user turn, before an assistant turn: in place',
        [u('1'), s('x'), a('2')],
        { system: 'top', turns: ['user', 'system:x', 'assistant'] },
      ],
      ['last, after a user turn: in place', [u('1'), s('x')], { system: 'top', turns: ['user', 'system:x'] }],
      ['before every turn: hoisted', [s('x'), u('1')], { system: 'top\n\nx', turns: ['user'] }],
      [
        'between a tool call and its result: after the result',
        [u('1'), call, s('x'), result],
        { system: 'top', turns: ['user', 'assistant', 'user', 'system:x'] },
      ],
      [
        'before a user turn: after it (the two user turns merge)',
        [u('1'), s('x'), u('2'), a('3')],
        { system: 'top', turns: ['user', 'system:x', 'assistant'] },
      ],
      [
        'after the last assistant turn: hoisted after the system text',
        [u('1'), a('2'), s('x')],
        { system: 'top\n\nx', turns: ['user', 'assistant'] },
      ],
      ['two in a row: merged', [u('1'), s('x'), s('y'), a('2')], { system: 'top', turns: ['user', 'system:x\n\ny', 'assistant'] }],
    ])('%s', (_, messages, expected) => {
      expect(shape(messages)).toEqual(expected)
    })

    test('a system message keeps its cache breakpoint as text blocks', () => {
      expect(body({ messages: [u('1'), s('x', { ttl: '1h' })] }).messages[1]).toEqual({
        role: 'system',
        content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      })
    })
  })
})
