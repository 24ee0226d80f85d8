// Stop reasons across protocols: total mappers, each vendor value to its canonical reason and
// back, with explicit defaults for anything unknown.
import { describe, expect, test } from 'bun:test'
import { fromAnthropicStop, fromChatFinish, fromConverseStop, toAnthropicStop, toChatFinish } from '../../src/core/stop-reasons.ts'

describe('stop reasons', () => {
  test('Anthropic both ways; unknown reasons end the turn', () => {
    for (const r of ['max_tokens', 'tool_use', 'stop_sequence', 'refusal'] as const) expect(toAnthropicStop(fromAnthropicStop(r))).toBe(r)
    expect(fromAnthropicStop('end_turn')).toBe('end')
    expect(fromAnthropicStop('pause_turn')).toBe('end')
    expect(fromAnthropicStop(undefined)).toBe('end')
    expect(toAnthropicStop('content_filter')).toBe('refusal')
    expect(toAnthropicStop('end')).toBe('end_turn')
  })

  test('chat both ways; a call with tool calls is tool_use whatever its finish_reason says', () => {
    expect(fromChatFinish('length', false)).toBe('max_tokens')
    expect(fromChatFinish('tool_calls', false)).toBe('tool_use')
    expect(fromChatFinish('function_call', false)).toBe('tool_use')
    expect(fromChatFinish('stop', true)).toBe('tool_use')
    expect(fromChatFinish('content_filter', false)).toBe('content_filter')
    expect(fromChatFinish(42, false)).toBe('end')
    expect([toChatFinish('max_tokens'), toChatFinish('tool_use'), toChatFinish('refusal'), toChatFinish('end')]).toEqual([
      'length',
      'tool_calls',
      'content_filter',
      'stop',
    ])
  })

  test('Bedrock Converse: guardrails and filters are content_filter; unknown reasons end the turn', () => {
    expect(['max_tokens', 'tool_use', 'stop_sequence'].map(fromConverseStop)).toEqual(['max_tokens', 'tool_use', 'stop_sequence'])
    expect(fromConverseStop('guardrail_intervened')).toBe('content_filter')
    expect(fromConverseStop('content_filtered')).toBe('content_filter')
    expect(fromConverseStop('end_turn')).toBe('end')
    expect(fromConverseStop('model_context_window_exceeded')).toBe('end')
    expect(fromConverseStop(undefined)).toBe('end')
  })
})
