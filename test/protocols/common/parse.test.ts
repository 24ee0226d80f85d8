// The /v1 protocol bodies: tolerant of members they do not read (those pass through to native
// upstreams, docs/api.md "Protocols"), and a wrong value is named with what is allowed.
import { describe, expect, test } from 'bun:test'
import { GatewayError } from '../../../src/core/errors.ts'
import { ChatRequest } from '../../../src/protocols/chat/schema.ts'
import { bodyParser } from '../../../src/protocols/common/parse.ts'
import { messagesSpoke } from '../../../src/protocols/messages/index.ts'
import { MessagesRequest } from '../../../src/protocols/messages/schema.ts'

const refusal = (parse: (raw: unknown) => unknown, raw: unknown): GatewayError => {
  try {
    parse(raw)
  } catch (e) {
    if (e instanceof GatewayError) return e
    throw e
  }
  throw new Error('expected a refusal')
}

describe('protocol body parser', () => {
  const chat = bodyParser(ChatRequest)
  const messages = bodyParser(MessagesRequest)

  test('a role outside the protocol is refused naming the roles it allows', () => {
    const e = refusal(chat, { model: 'm', messages: [{ role: 'robot', content: 'hi' }] })
    expect(e.code).toBe('VALIDATION_FAILED')
    expect(e.message).toBe('messages[0].role: must be one of system, developer, user, assistant, tool')
    expect(e.extra.param).toBe('messages[0].role')
    // The messages protocol checks roles with the system message's placement rules (its spoke's parse).
    const spoke = messagesSpoke({ creditsPerUsd: 1, creditSymbol: 'C' })
    expect(refusal(spoke.parse, { model: 'm', max_tokens: 5, messages: [{ role: 'robot', content: 'x' }] }).message).toBe(
      'messages[0].role: must be one of user, assistant, system (got "robot")',
    )
  })

  test('members the gateway does not read pass, at the top and inside messages', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi', cache_hint: 1 }], logit_bias: {}, vendor_flag: true }
    expect(chat(body) as unknown).toEqual(body)
    const native = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], metadata: { user_id: 'u' }, container: 'c' }
    expect(messages(native) as unknown).toEqual(native)
  })
})
