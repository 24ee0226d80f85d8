// The embeddings spoke: the body's bounds, its estimate (no output tokens), and the refusal of
// any use beyond pass-through.
import { describe, expect, test } from 'bun:test'
import { GatewayError } from '../../../src/core/errors.ts'
import { chatSpoke } from '../../../src/protocols/chat/index.ts'
import { embeddingsSpoke } from '../../../src/protocols/embeddings/index.ts'

const spoke = embeddingsSpoke(chatSpoke)

const refusal = (raw: unknown): GatewayError => {
  try {
    spoke.parse(raw)
  } catch (e) {
    if (e instanceof GatewayError) return e
    throw e
  }
  throw new Error('expected a refusal')
}

describe('embeddings spoke', () => {
  test('2,048 inputs are accepted, 2,049 refused naming the bound', () => {
    expect(spoke.parse({ model: 'm', input: Array.from({ length: 2048 }, () => 'x') }).input).toHaveLength(2048)
    const e = refusal({ model: 'm', input: Array.from({ length: 2049 }, () => [7]) })
    expect(e.code).toBe('VALIDATION_FAILED')
    expect(e.message).toBe('input: at most 2048 inputs per call (got 2049)')
  })

  test('unknown members pass; encoding_format is float or base64', () => {
    expect(spoke.parse({ model: 'm', input: 'x', encoding_format: 'base64', extra: 1 })).toMatchObject({ extra: 1 })
    expect(refusal({ model: 'm', input: 'x', encoding_format: 'int8' }).extra.param).toBe('encoding_format')
  })

  test('the estimate: input characters, the longest input to fit the window, no output', () => {
    const body = spoke.parse({ model: 'm', input: ['abc', 'abcdef'] })
    expect(spoke.estimateInput(body)).toEqual({ promptChars: 9, fitChars: 6, maxTokens: 0, choices: 1 })
    expect(spoke.stream(body)).toBe(false)
  })

  test('it is served by pass-through only: any translation is a refusal, never a crash', () => {
    const body = spoke.parse({ model: 'm', input: 'x' })
    expect(() => spoke.decode(body)).toThrow('Embeddings are served only through openai-chat gateways.')
  })
})
