// Chat body → canonical: leading system and developer messages are the system text; later ones
// stay at their position as system messages (docs/translation.md "Mid-conversation system messages").
import { expect, test } from 'bun:test'
import { decodeChat } from '../../../src/protocols/chat/decode.ts'
import type { ChatRequest } from '../../../src/protocols/chat/schema.ts'

test('leading system/developer messages hoist; a later one stays between the turns it came between', () => {
  const r = decodeChat({
    model: 'm',
    messages: [
      { role: 'system', content: 'a' },
      { role: 'developer', content: [{ type: 'text', text: 'b' }] },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'developer', content: 'later' },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
    ],
  } as ChatRequest)
  expect(r.system).toEqual([
    { type: 'text', text: 'a' },
    { type: 'text', text: 'b' },
  ])
  expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'system', 'user'])
  expect(r.messages[2]).toEqual({ role: 'system', content: [{ type: 'text', text: 'later' }] })
  expect(r.messages[3]!.content[0]).toMatchObject({ type: 'tool_result', toolCallId: 'c1' })
})
