// GET /v1/models/{id} (docs/api.md "Models"): one model as the list shows it, which is what the
// official OpenAI SDK's models.retrieve(id) reads — slugs with `/`, raw or %2F-encoded; a model
// the list would not show is 404 in the chat envelope.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

describe('GET /v1/models/{id}', () => {
  let gw: TestGateway
  let key: string
  let openai: OpenAI
  beforeAll(async () => {
    const catalog = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])
    catalog.models.push({ ...catalog.models[0]!, id: 'acme/old', deprecated: true })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    key = (await gw.user(1)).key
    openai = new OpenAI({ baseURL: `${gw.listen()}/v1`, apiKey: key, maxRetries: 0 })
  })
  afterAll(() => gw.stop())

  const get = (path: string, k = key) => gw.request(path, { headers: bearer(k) })

  test('the OpenAI SDK retrieves a model by its slug: the same object the list holds', async () => {
    const model = await openai.models.retrieve('acme/chat-1')
    const listed = (await openai.models.list()).data.find((m) => m.id === 'acme/chat-1')
    expect(model).toEqual(listed!)
    expect(model).toMatchObject({ id: 'acme/chat-1', object: 'model', owned_by: 'acme' })
    expect(typeof model.created).toBe('number')
  })

  test('the slug may come raw or encoded; ?shape=b as on the list', async () => {
    for (const path of ['/v1/models/acme/chat-1', '/v1/models/acme%2Fchat-1']) {
      const res = await get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('x-request-id')).toMatch(/^req_[^,]+$/)
      expect(((await res.json()) as { id: string }).id).toBe('acme/chat-1')
    }
    const b = (await (await get('/v1/models/acme/chat-1?shape=b')).json()) as { service_mode: string; pricing: { unit: string } }
    expect(b.service_mode).toBe('performance')
    expect(b.pricing.unit).toBe('1M_tokens')
  })

  test('an unknown or deprecated model → 404 NOT_FOUND in the chat envelope; the SDK raises NotFoundError', async () => {
    for (const id of ['acme/none', 'acme/old', '%E0%A4%A']) {
      const res = await get(`/v1/models/${id}`)
      expect(res.status).toBe(404)
      const body = (await res.json()) as { status: string; error: { code: string; message: string; param: string } }
      expect(body.status).toBe('error')
      expect(body.error.code).toBe('NOT_FOUND')
      expect(body.error.param).toBe('model')
      expect(res.headers.get('x-request-id')).toMatch(/^req_[^,]+$/)
    }
    const error = await openai.models.retrieve('acme/none').catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.NotFoundError)
    expect(error.status).toBe(404)
  })

  test('without a valid key → 401 in the chat envelope', async () => {
    const res = await get('/v1/models/acme/chat-1', 'sk-not-a-key')
    expect(res.status).toBe(401)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED')
  })
})
