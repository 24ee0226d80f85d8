// The messages same-protocol body: the caller's own JSON with the upstream model name, minus
// thinking blocks that carry OpenAI's reasoning (Anthropic would refuse them).
import { describe, expect, test } from 'bun:test'
import { openAiSignature } from '../../../src/core/reasoning-carrier.ts'
import { anthropicPassthroughBody } from '../../../src/providers/anthropic-messages/passthrough.ts'

describe('anthropic-messages pass-through body', () => {
  test('thinking blocks carrying OpenAI reasoning are dropped, signed Anthropic thinking is kept', () => {
    const own = { type: 'thinking', thinking: 'mine', signature: 'sig-anthropic' }
    const foreign = { type: 'thinking', thinking: 'theirs', signature: openAiSignature('rs_1', 'enc') }
    const text = { type: 'text', text: 'answer' }
    const raw = {
      model: 'public/slug',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [foreign, text] },
        { role: 'assistant', content: [own, text] },
      ],
    }
    expect(JSON.parse(anthropicPassthroughBody(raw, 'claude-up'))).toEqual({
      model: 'claude-up',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [text] },
        { role: 'assistant', content: [own, text] },
      ],
    })
  })
})
