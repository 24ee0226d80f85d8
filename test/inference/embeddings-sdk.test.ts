// The official `openai` SDK's embeddings.create against a real listener, changing only its base
// URL: one input, a batch of three, base64 as the caller asked for it, the model list, and the
// kind mismatches as the SDK's own error classes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { embeddingModel, embeddingsBehaviour, VECTOR, vectorOf } from '../helpers/embeddings.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const failure = (p: Promise<unknown>): Promise<any> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  )

/** The SDK decodes base64 into float32: the fixture's vector at float32 precision. */
const asFloat32 = (v: number[]) => [...new Float32Array(v)]

for (const backends of ALL_BACKENDS) {
  describe(`openai SDK embeddings on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    let client: OpenAI
    beforeAll(async () => {
      up = startFakeUpstream(embeddingsBehaviour())
      const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      catalog.models.push(embeddingModel(['gw-a']))
      gw = await startTestGateway(backends, catalog)
      const user = await gw.user(1, { rpm: 1_000 })
      client = new OpenAI({ baseURL: `${gw.listen()}/v1`, apiKey: user.key, maxRetries: 0 })
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    test('one input: the vector, the public slug, usage and svc; the upstream got its own model at /embeddings', async () => {
      const { data: r, request_id } = await client.embeddings
        .create({ model: 'acme/embed-1', input: 'The food was delicious' })
        .withResponse()
      expect(r.object).toBe('list')
      expect(r.model).toBe('acme/embed-1')
      expect(r.data).toHaveLength(1)
      expect(r.data[0]!.object).toBe('embedding')
      expect(r.data[0]!.embedding).toEqual(asFloat32(vectorOf(0)))
      expect(r.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 })
      expect((r as any).svc).toMatchObject({ cost: 0.000001, gateway: 'gw-a', usageSource: 'upstream' }) // 6 × $0.13/1M → 1 micro-USD
      expect(request_id).toMatch(/^req_/)
      const seen = up.seen.at(-1)!
      expect(seen.path).toBe('/v1/embeddings')
      // The SDK asks for base64 unless told otherwise; the gateway passes the caller's body on.
      expect(seen.body).toEqual({ model: 'text-embedding-3-small', input: 'The food was delicious', encoding_format: 'base64' })
    })

    test('a batch of three: one vector per input, in order', async () => {
      const input = ['first text', 'second text', 'third text here']
      const r = await client.embeddings.create({ model: 'acme/embed-1', input, encoding_format: 'float', dimensions: 1536 })
      expect(r.data.map((d) => d.index)).toEqual([0, 1, 2])
      expect(r.data.map((d) => d.embedding[0])).toEqual([0, 1, 2])
      expect(r.data[2]!.embedding).toEqual(vectorOf(2))
      expect(r.data[0]!.embedding).toHaveLength(VECTOR.length)
      expect(r.usage).toEqual({ prompt_tokens: 3 + 3 + 4, total_tokens: 10 })
      expect(up.seen.at(-1)!.body).toMatchObject({ input, encoding_format: 'float', dimensions: 1536 })
    })

    test('base64 asked for: the base64 strings as the upstream sent them', async () => {
      const r = await client.embeddings.create({ model: 'acme/embed-1', input: ['a', 'b'], encoding_format: 'base64' })
      const decoded = r.data.map((d) => [...new Float32Array(Buffer.from(d.embedding as unknown as string, 'base64').buffer.slice(0))])
      expect(typeof r.data[0]!.embedding).toBe('string')
      expect(decoded[1]).toEqual(asFloat32(vectorOf(1)))
    })

    test('token arrays are accepted as input', async () => {
      const r = await client.embeddings.create({
        model: 'acme/embed-1',
        input: [
          [1, 2, 3],
          [4, 5],
        ],
        encoding_format: 'float',
      })
      expect(r.data).toHaveLength(2)
      expect(r.usage.prompt_tokens).toBe(5)
    })

    test('models.list shows the embedding model with capabilities ["embeddings"] and no output price', async () => {
      const list = await client.models.list()
      const m = list.data.find((x) => x.id === 'acme/embed-1') as any
      expect(m.capabilities).toEqual(['embeddings'])
      expect(m.pricing).toEqual({ input: 0.00000013, output: null, currency: 'USD' })
      expect((list.data.find((x) => x.id === 'acme/chat-1') as any).capabilities).not.toContain('embeddings')
    })

    test('a chat model on embeddings, or the embedding model on chat: a 400 naming the problem, no upstream call', async () => {
      const before = up.seen.length
      const e1 = await failure(client.embeddings.create({ model: 'acme/chat-1', input: 'x' }))
      expect(e1).toBeInstanceOf(OpenAI.BadRequestError)
      expect(e1.status).toBe(400)
      expect(e1.error).toMatchObject({ code: 'BAD_REQUEST', param: 'model' })
      expect(e1.error.message).toContain("'acme/chat-1' is a chat model")
      const e2 = await failure(client.chat.completions.create({ model: 'acme/embed-1', messages: [{ role: 'user', content: 'hi' }] }))
      expect(e2).toBeInstanceOf(OpenAI.BadRequestError)
      expect(e2.error.message).toContain('POST /v1/embeddings')
      expect(up.seen.length).toBe(before)
    })

    test('more than 2,048 inputs: a validation error in the chat envelope', async () => {
      const e = await failure(client.embeddings.create({ model: 'acme/embed-1', input: Array.from({ length: 2049 }, () => 'x') }))
      expect(e).toBeInstanceOf(OpenAI.UnprocessableEntityError)
      expect(e.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        param: 'input',
        message: 'input: at most 2048 inputs per call (got 2049)',
      })
    })
  })
}
