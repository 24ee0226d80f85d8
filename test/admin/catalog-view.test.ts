// GET /api/admin/catalog: routes with their priority, weight and limits, fallbacks, and no secret.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

describe('admin catalog view', () => {
  let gw: TestGateway
  beforeAll(async () => {
    const c = simpleCatalog([
      { id: 'gw-a', url: 'http://127.0.0.1:9' },
      { id: 'gw-b', url: 'http://127.0.0.1:9' },
    ])
    c.gateways[0] = { ...c.gateways[0]!, headers: { 'api-key': 'env:VIEW_SECRET' }, query: { 'api-version': 'v1' } }
    c.models[0] = {
      ...c.models[0]!,
      fallbacks: ['acme/other'],
      routes: [
        { gateway: 'gw-a', model: 'm-a', priority: 0, weight: 3, rpm: 100, tpm: 50_000 },
        { gateway: 'gw-b', model: 'm-b', priority: 1 },
      ],
    }
    c.models.push({ ...c.models[0]!, id: 'acme/other', fallbacks: undefined, routes: [{ gateway: 'gw-b', model: 'm-o' }] })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, c, { VIEW_SECRET: 'secret-value-123' })
  }, 30_000)
  afterAll(async () => gw.stop())

  test('every model with its routes, weights and limits; header names but never their values', async () => {
    const res = await gw.request('/api/admin/catalog', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).not.toContain('secret-value-123')
    expect(text).not.toContain('sk-upstream-secret')
    const body = JSON.parse(text)
    expect(body.nextCursor).toBeNull()
    expect(body.items.map((m: { id: string }) => m.id)).toEqual(['acme/chat-1', 'acme/other'])
    expect(body.items[0]).toEqual({
      id: 'acme/chat-1',
      available: true,
      deprecated: false,
      contextWindow: 128_000,
      fallbacks: ['acme/other'],
      routes: [
        {
          gateway: 'gw-a',
          protocol: 'openai-chat',
          model: 'm-a',
          priority: 0,
          weight: 3,
          rpm: 100,
          tpm: 50_000,
          headers: ['api-key'],
          query: ['api-version'],
        },
        { gateway: 'gw-b', protocol: 'openai-chat', model: 'm-b', priority: 1, weight: 1, rpm: null, tpm: null, headers: [], query: [] },
      ],
    })
    expect(body.items[1].routes[0]).toMatchObject({ priority: 0, weight: 1 })
  })

  test('without the admin token: 401, nothing shown', async () => {
    const res = await gw.request('/api/admin/catalog')
    expect(res.status).toBe(401)
  })
})
