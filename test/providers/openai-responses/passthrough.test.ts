// The responses same-protocol body: the caller's own JSON with the upstream model name, minus
// reasoning items that carry Anthropic's signature (OpenAI would refuse them).
import { describe, expect, test } from 'bun:test'
import { anthropicEncrypted } from '../../../src/core/reasoning-carrier.ts'
import { responsesPassthroughBody } from '../../../src/providers/openai-responses/passthrough.ts'

describe('openai-responses pass-through body', () => {
  test("reasoning items carrying Anthropic's signature are dropped, OpenAI's own are kept", () => {
    const own = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'openai-enc' }
    const foreign = { type: 'reasoning', summary: [], encrypted_content: anthropicEncrypted('sig') }
    const message = { type: 'message', role: 'user', content: 'hi' }
    const body = JSON.parse(responsesPassthroughBody({ model: 'public/slug', input: [message, foreign, own], store: false }, 'o4-up'))
    expect(body).toEqual({ model: 'o4-up', input: [message, own], store: false })
    expect(JSON.parse(responsesPassthroughBody({ model: 'm', input: 'just text' }, 'o4-up'))).toEqual({
      model: 'o4-up',
      input: 'just text',
    })
  })
})
