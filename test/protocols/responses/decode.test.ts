// Responses body → canonical: `instructions` and leading system/developer items are the system
// text; later ones stay at their position as system messages.
import { expect, test } from 'bun:test'
import { decodeResponses } from '../../../src/protocols/responses/decode.ts'
import type { ResponsesRequest } from '../../../src/protocols/responses/schema.ts'

test('instructions and leading developer items hoist; a later developer item stays in place', () => {
  const r = decodeResponses({
    model: 'm',
    instructions: 'top',
    input: [
      { role: 'developer', content: 'lead' },
      { role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'later' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
    ],
  } as ResponsesRequest)
  expect(r.system).toEqual([
    { type: 'text', text: 'top' },
    { type: 'text', text: 'lead' },
  ])
  expect(r.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'system', content: [{ type: 'text', text: 'later' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
  ])
})
