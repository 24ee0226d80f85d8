// Messages body → canonical, for what the current clients send: system messages at their
// position, the reasoning request (adaptive thinking, effort, budgets), and block types — the
// Anthropic-only ones left out, unknown ones refused naming their position.
import { describe, expect, test } from 'bun:test'
import { GatewayError } from '../../../src/core/errors.ts'
import { decodeMessages } from '../../../src/protocols/messages/decode.ts'
import { messagesErrorBody } from '../../../src/protocols/messages/error.ts'
import type { MessagesRequest } from '../../../src/protocols/messages/schema.ts'

const decode = (over: Record<string, unknown>) =>
  decodeMessages({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...over } as MessagesRequest)

describe('messages decode', () => {
  test('a system message keeps its position, with its cache hints; the top-level system stays apart', () => {
    const r = decode({
      system: 'top',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: [{ type: 'text', text: 'later', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'and?' },
        { role: 'system', content: 'last' },
      ],
    })
    expect(r.system).toEqual([{ type: 'text', text: 'top' }])
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'system', 'assistant', 'user', 'system'])
    expect(r.messages[1]).toEqual({ role: 'system', content: [{ type: 'text', text: 'later', cache: {} }] })
    expect(r.messages[4]).toEqual({ role: 'system', content: [{ type: 'text', text: 'last' }] })
  })

  test.each<[string, Record<string, unknown>, unknown]>([
    ['no thinking, no effort', {}, undefined],
    [
      'adaptive, effort high',
      { thinking: { type: 'adaptive', display: 'omitted' }, output_config: { effort: 'high' } },
      { effort: 'high' },
    ],
    ['adaptive, effort low', { thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }, { effort: 'low' }],
    ['adaptive without effort (Anthropic: high)', { thinking: { type: 'adaptive' } }, { effort: 'high' }],
    ['adaptive, effort max', { thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }, { effort: 'high' }],
    ['effort alone', { output_config: { effort: 'medium' } }, { effort: 'medium' }],
    ['effort null, no thinking', { output_config: { effort: null } }, undefined],
    ['adaptive, effort null', { thinking: { type: 'adaptive' }, output_config: { effort: null } }, { effort: 'high' }],
    ['thinking disabled, effort given', { thinking: { type: 'disabled' }, output_config: { effort: 'low' } }, undefined],
    ['a budget', { thinking: { type: 'enabled', budget_tokens: 2_000 } }, { budgetTokens: 2_000 }],
  ])('reasoning: %s', (_, over, expected) => {
    expect(decode(over).reasoning).toEqual(expected as never)
  })

  test('Anthropic-only blocks (server tools, their results, search results) are left out', () => {
    const content = [
      { type: 'text', text: 'a' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
      { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'x', server_name: 's', input: {} },
      { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', content: [] },
      { type: 'search_result', source: 's', title: 't', content: [] },
      { type: 'container_upload', file_id: 'f' },
    ]
    expect(decode({ messages: [{ role: 'assistant', content }] }).messages[0]!.content).toEqual([{ type: 'text', text: 'a' }])
  })

  test('an unknown block type is refused, naming its position', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'hologram' }] },
    ]
    let caught: unknown
    try {
      decode({ messages })
    } catch (e) {
      caught = e
    }
    expect(caught).toBeInstanceOf(GatewayError)
    const err = caught as GatewayError
    expect([err.code, err.extra.param]).toEqual(['VALIDATION_FAILED', 'messages[1].content[1].type'])
    expect(messagesErrorBody(err).status).toBe(400)
    expect(err.message).toStartWith('messages[1].content[1].type: content block type "hologram"')
  })
})
