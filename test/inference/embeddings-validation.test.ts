// POST /v1/embeddings refuses what it cannot serve before any upstream call or reservation
// (docs/api.md "Embeddings"): the 2,048-input bound, the body limit, empty or mistyped input, an
// input that cannot fit the model's window, the wrong kind of model on every protocol. A served
// answer carries OpenAI's members only, its vectors byte for byte as the upstream sent them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { embeddingModel, embeddingsAnswer, embeddingsBehaviour } from '../helpers/embeddings.ts'
import { expectChatError, expectNoUpstreamIdentity } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { reservedNow } from '../helpers/money.ts'

describe('embeddings: bounds, kinds and the public answer', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let user: { userId: string; key: string }
  beforeAll(async () => {
    up = startFakeUpstream(embeddingsBehaviour())
    const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
    catalog.models.push(embeddingModel(['gw-a']))
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog, { MAX_BODY_BYTES: String(64 * 1024) })
    user = await gw.user(1)
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  const post = (path: string, body: unknown) =>
    gw.request(path, { method: 'POST', headers: bearer(user.key), body: typeof body === 'string' ? body : JSON.stringify(body) })
  const embed = (body: Record<string, unknown>) => post('/v1/embeddings', { model: 'acme/embed-1', ...body })

  test.each([
    [
      '2,049 texts',
      { input: Array.from({ length: 2049 }, () => 'x') },
      422,
      'VALIDATION_FAILED',
      'input: at most 2048 inputs per call (got 2049)',
    ],
    ['2,049 token arrays', { input: Array.from({ length: 2049 }, () => [1]) }, 422, 'VALIDATION_FAILED', 'at most 2048 inputs'],
    ['an empty string', { input: '' }, 422, 'VALIDATION_FAILED', 'input'],
    ['an empty list', { input: [] }, 422, 'VALIDATION_FAILED', 'input'],
    ['no input', {}, 422, 'VALIDATION_FAILED', 'input'],
    ['an unknown encoding_format', { input: 'x', encoding_format: 'int8' }, 422, 'VALIDATION_FAILED', 'encoding_format'],
    ['dimensions of 0', { input: 'x', dimensions: 0 }, 422, 'VALIDATION_FAILED', 'dimensions'],
    ['a token id of 1e308', { input: [1, 1e308] }, 422, 'VALIDATION_FAILED', 'input'],
    ['a token id past int32', { input: [[1], [2_147_483_648]] }, 422, 'VALIDATION_FAILED', 'input'],
    ['a fractional token id', { input: [1.5] }, 422, 'VALIDATION_FAILED', 'input'],
    ['a negative token id', { input: [-1] }, 422, 'VALIDATION_FAILED', 'input'],
    ['one input past the context window', { input: ['ok', 'w'.repeat(6 * 8192 + 6)] }, 400, 'CONTEXT_LENGTH_EXCEEDED', '8192'],
    ['a body over MAX_BODY_BYTES', { input: 'v'.repeat(70_000) }, 413, 'PAYLOAD_TOO_LARGE', ''],
    ['an unknown model', { model: 'acme/nope', input: 'x' }, 503, 'MODEL_UNAVAILABLE', "'acme/nope'"],
    ['a chat model', { model: 'acme/chat-1', input: 'x' }, 400, 'BAD_REQUEST', "Model 'acme/chat-1' is a chat model"],
  ])('%s: refused before any upstream call, nothing reserved', async (_, body, status, code, text) => {
    const before = up.seen.length
    const err = await expectChatError(await embed(body), status, code)
    expect(err.message).toContain(text)
    expect(up.seen.length).toBe(before)
    expect(await reservedNow(gw, user.userId)).toBe(0n)
  })

  test('many inputs that each fit the window are served, whatever their sum', async () => {
    const res = await embed({ input: Array.from({ length: 8 }, () => 'q'.repeat(7_000)) })
    expect(res.status).toBe(200)
  })

  test('the embedding model on the three chat protocols: 400 in each envelope, naming POST /v1/embeddings', async () => {
    const hi = [{ role: 'user', content: 'hi' }]
    const chat = await expectChatError(await post('/v1/chat/completions', { model: 'acme/embed-1', messages: hi }), 400, 'BAD_REQUEST')
    expect(chat).toMatchObject({ param: 'model', message: "Model 'acme/embed-1' is an embedding model; call POST /v1/embeddings with it." })
    const messages = await post('/v1/messages', { model: 'acme/embed-1', max_tokens: 5, messages: hi })
    expect(messages.status).toBe(400)
    expect(await messages.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('POST /v1/embeddings') },
    })
    const responses = await post('/v1/responses', { model: 'acme/embed-1', input: 'hi' })
    expect(responses.status).toBe(400)
    expect(await responses.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'model' } })
    const count = await post('/v1/messages/count_tokens', { model: 'acme/embed-1', messages: hi })
    expect(count.status).toBe(400)
  })

  test("the answer: OpenAI's members only, the vectors byte for byte, no upstream identity", async () => {
    let sent = ''
    up.script({
      kind: 'fn',
      handle: (_req, body) => {
        // An OpenAI-compatible server's dialect: its own id and provider, model first.
        const answer = JSON.parse(embeddingsAnswer(body))
        sent = JSON.stringify({ id: 'embd-upstream-secret', model: 'upstream-secret-model', provider: 'openrouter', ...answer })
        return new Response(sent, { headers: { 'content-type': 'application/json' } })
      },
    })
    const res = await embed({ input: ['one', 'two'], encoding_format: 'float' })
    const text = await res.text()
    const dataJson = JSON.stringify(JSON.parse(sent).data)
    expect(sent).toContain(dataJson)
    expect(
      text.startsWith(`{"object":"list","data":${dataJson},"model":"acme/embed-1","usage":{"prompt_tokens":2,"total_tokens":2},"svc":{`),
    ).toBe(true)
    expect(Object.keys(JSON.parse(text))).toEqual(['object', 'data', 'model', 'usage', 'svc'])
    // The upstream's id reaches svc.upstreamRequestId only, as on chat (docs/api.md "The svc extension").
    expect(JSON.parse(text).svc.upstreamRequestId).toBe('embd-upstream-secret')
    expectNoUpstreamIdentity(text.replace('embd-upstream-secret', ''), res.headers, ['embd-upstream', 'text-embedding-3-small'])
  })

  test('the public catalog lists the embedding model with capabilities ["embeddings"] and no output price', async () => {
    const page = (await (await gw.request('/api/public/models?capability=embeddings')).json()) as any
    expect(page.items.map((m: any) => m.id)).toEqual(['acme/embed-1'])
    expect(page.items[0]).toMatchObject({ capabilities: ['embeddings'], pricing: { input: 0.13, output: null } })
  })
})
