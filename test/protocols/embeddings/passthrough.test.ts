// An embeddings answer made public on the hand-built fixture (test/fixtures/openai-chat,
// json-embeddings-float.json): `data` passes as the exact bytes the upstream sent, `model`
// becomes the public slug, members outside OpenAI's shape are dropped, usage is prompt tokens.
import { describe, expect, test } from 'bun:test'
import { RawJson } from '../../../src/lib/json-members.ts'
import { appendMember, bodyInit, type SplicedJson } from '../../../src/lib/json-tokens.ts'
import { publicEmbeddings, readEmbeddingsAnswer } from '../../../src/protocols/embeddings/passthrough.ts'
import { fixtureText } from '../../helpers/fixtures.ts'

const FIXTURE = fixtureText('openai-chat', 'json-embeddings-float.json')
const bytes = (text: string) => new TextEncoder().encode(text)
const read = (text: string) => readEmbeddingsAnswer(bytes(text)).parsed

const json = (raw: RawJson) => new TextDecoder().decode(raw.bytes)

describe('embeddings pass-through', () => {
  test('the fixture: data kept as its source bytes, the other members parsed', () => {
    const source = bytes(FIXTURE)
    const { text, parsed } = readEmbeddingsAnswer(source)
    expect(text).toBe(FIXTURE)
    const data = parsed.data as RawJson
    expect(data).toBeInstanceOf(RawJson)
    expect(FIXTURE).toContain(json(data))
    expect(JSON.parse(json(data))).toEqual(JSON.parse(FIXTURE).data)
    // The very bytes of the upstream's answer, not a copy.
    expect(data.bytes.buffer).toBe(source.buffer)
    expect(parsed).toMatchObject({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: 8, total_tokens: 8 } })
  })

  test('the public answer: OpenAI members in order, the slug, data spliced in as bytes, usage as input tokens', async () => {
    const parsed = read(FIXTURE)
    const { body, usage } = publicEmbeddings(parsed, 'acme/embed-1')
    const spliced = body as SplicedJson
    expect(spliced.raw).toBe((parsed.data as RawJson).bytes)
    const sent = await new Response(bodyInit(appendMember(body, 'svc', '{"cost":0}'))).text()
    const data = json(parsed.data as RawJson)
    expect(sent).toBe(
      `{"object":"list","data":${data},"model":"acme/embed-1","usage":{"prompt_tokens":8,"total_tokens":8},"svc":{"cost":0}}`,
    )
    expect(usage).toEqual({ inputTokens: 8, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 })
  })

  test('an answer that is not ASCII: the offsets still fall right and its small members decode as UTF-8', async () => {
    const text = '{"model":"modèle ✓","data":[{"object":"embedding","index":0,"embedding":[0.5],"note":"é"}],"usage":{"prompt_tokens":1}}'
    const parsed = read(text)
    expect(parsed.model).toBe('modèle ✓')
    expect(await new Response(bodyInit(publicEmbeddings(parsed, 'slug').body)).text()).toBe(
      '{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.5],"note":"é"}],"model":"slug","usage":{"prompt_tokens":1}}',
    )
  })

  test('upstream members outside the shape are dropped; an answer without usage reports none', async () => {
    const text = '{"id":"embd-1","provider":"x","model":"m","data":[{"object":"embedding","index":0,"embedding":"AACAPw=="}]}'
    const { body, usage } = publicEmbeddings(read(text), 's')
    expect(await new Response(bodyInit(body)).text()).toBe(
      '{"object":"list","data":[{"object":"embedding","index":0,"embedding":"AACAPw=="}],"model":"s"}',
    )
    expect(usage).toBeUndefined()
  })

  test.each([
    ['an error object', '{"error":{"message":"no"}}'],
    ['data that is not a list', '{"object":"list","data":{"a":1}}'],
    ['a truncated body', FIXTURE.slice(0, 5_000)],
    ['an unreadable small member', '{"data":[],"usage":{"prompt_tokens":tru}}'],
  ])('%s: not an embeddings answer (the upstream failed, failover may move on)', (_, text) => {
    expect(() => read(text)).toThrow()
  })
})
