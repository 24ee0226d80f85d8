// Canonical request → responses body, as tables: the output cap floor, tool choice, reasoning
// (effort, encrypted content back), and which history items cross.
import { describe, expect, test } from 'bun:test'
import type { CRequest, CToolChoice } from '../../../src/core/canonical.ts'
import { responsesBody } from '../../../src/providers/openai-responses/request.ts'
import { request, TOOL } from '../canonical.ts'

const body = (over: Partial<CRequest>) => JSON.parse(responsesBody(request(over), 'o4-up'))

describe('openai-responses request', () => {
  test.each([
    [undefined, undefined],
    [5, 16],
    [16, 16],
    [400, 400],
  ])('max tokens %p → max_output_tokens %p', (maxTokens, expected) => {
    expect(body({ maxTokens }).max_output_tokens).toBe(expected)
  })

  test.each<[CToolChoice, unknown]>([
    ['auto', 'auto'],
    ['required', 'required'],
    [{ name: 'get_weather' }, { type: 'function', name: 'get_weather' }],
  ])('tool choice %p → %p', (toolChoice, expected) => {
    expect(body({ tools: [TOOL], toolChoice }).tool_choice).toEqual(expected)
  })

  test('reasoning asks for a summary and the encrypted content; nothing is stored upstream', () => {
    expect(body({ reasoning: { budgetTokens: 16_000 } })).toMatchObject({
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    })
  })

  test('history: tool calls and results become items; only its own encrypted reasoning goes back', () => {
    const b = body({
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'mine', encrypted: 'enc', id: 'rs_1', origin: 'openai-responses' },
            { type: 'reasoning', text: 'theirs', signature: 'sig', origin: 'anthropic-messages' },
            { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{}' },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'ok' }] }] },
      ],
    })
    expect(b.input).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'mine' }], encrypted_content: 'enc' },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
    ])
  })

  test('a mid-conversation system message is a developer message item at its position', () => {
    const b = body({
      system: [{ type: 'text', text: 'top' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'system', content: [{ type: 'text', text: 'x' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      ],
    })
    expect(b.instructions).toBe('top')
    expect(b.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'x' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
    ])
  })
})
