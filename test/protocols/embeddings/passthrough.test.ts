// An embeddings answer made public on the hand-built fixture (test/fixtures/openai-chat,
// json-embeddings-float.json): `data` passes as the exact text the upstream sent, `model`
// becomes the public slug, members outside OpenAI's shape are dropped, usage is prompt tokens.
import { describe, expect, test } from 'bun:test'
import { RawJson } from '../../../src/lib/json-members.ts'
import { publicEmbeddings, readEmbeddingsAnswer } from '../../../src/protocols/embeddings/passthrough.ts'
import { fixtureText } from '../../helpers/fixtures.ts'

const FIXTURE = fixtureText('openai-chat', 'json-embeddings-float.json')

describe('embeddings pass-through', () => {
  test('the fixture: data kept as its source text, the other members parsed', () => {
    const parsed = readEmbeddingsAnswer(FIXTURE)
    expect(parsed.data).toBeInstanceOf(RawJson)
    const data = (parsed.data as RawJson).json
    expect(FIXTURE).toContain(data)
    expect(JSON.parse(data)).toEqual(JSON.parse(FIXTURE).data)
    expect(parsed).toMatchObject({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: 8, total_tokens: 8 } })
  })

  test('the public answer: OpenAI members in order, the slug, data byte for byte, usage as input tokens', () => {
    const parsed = readEmbeddingsAnswer(FIXTURE)
    const { body, usage } = publicEmbeddings(parsed, 'acme/embed-1')
    const data = (parsed.data as RawJson).json
    expect(body).toBe(`{"object":"list","data":${data},"model":"acme/embed-1","usage":{"prompt_tokens":8,"total_tokens":8}}`)
    expect(usage).toEqual({ inputTokens: 8, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 })
  })

  test('upstream members outside the shape are dropped; an answer without usage reports none', () => {
    const text = '{"id":"embd-1","provider":"x","model":"m","data":[{"object":"embedding","index":0,"embedding":"AACAPw=="}]}'
    const { body, usage } = publicEmbeddings(readEmbeddingsAnswer(text), 's')
    expect(body).toBe('{"object":"list","data":[{"object":"embedding","index":0,"embedding":"AACAPw=="}],"model":"s"}')
    expect(usage).toBeUndefined()
  })

  test.each([
    ['an error object', '{"error":{"message":"no"}}'],
    ['data that is not a list', '{"object":"list","data":{"a":1}}'],
    ['a truncated body', FIXTURE.slice(0, 5_000)],
    ['an unreadable small member', '{"data":[],"usage":{"prompt_tokens":tru}}'],
  ])('%s: not an embeddings answer (the upstream failed, failover may move on)', (_, text) => {
    expect(() => readEmbeddingsAnswer(text)).toThrow()
  })
})
