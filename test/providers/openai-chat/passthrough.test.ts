// The chat same-protocol body: the caller's own JSON with the upstream model name and unknown
// fields intact; the gateway always asks for stream usage.
import { describe, expect, test } from 'bun:test'
import { chatPassthroughBody } from '../../../src/providers/openai-chat/passthrough.ts'

describe('openai-chat pass-through body', () => {
  test('the upstream model, unknown fields kept, include_usage forced on streams only', () => {
    const body = { model: 'public/slug', messages: [], vendor_extra: { a: 1 }, stream_options: { other: true } }
    expect(JSON.parse(chatPassthroughBody(body, 'gpt-up', true))).toEqual({
      model: 'gpt-up',
      messages: [],
      vendor_extra: { a: 1 },
      stream_options: { other: true, include_usage: true },
    })
    expect(JSON.parse(chatPassthroughBody({ model: 'x', messages: [] }, 'gpt-up', false))).toEqual({ model: 'gpt-up', messages: [] })
  })
})
