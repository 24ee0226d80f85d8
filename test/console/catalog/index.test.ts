// GET /api/public/models (docs/console.md "Public catalog"): no session needed; CDN cache headers;
// a weak ETag that a revalidation answers with 304 and no body; a different query is a different
// ETag; out-of-range parameters a 400.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { CONSOLE_ENV, json } from '../helpers.ts'

describe('public catalog route on pglite+memory', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
  }, 60_000)
  afterAll(() => gw.stop())

  test('no auth; JSON with cache headers and a weak ETag over the body', async () => {
    const res = await gw.request('/api/public/models')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=600')
    expect(res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]{32}"$/)
    const body = await json(res)
    expect(body).toMatchObject({ total: 1, page: 1, pageSize: 20, totalPages: 1 })
    expect(body.items[0].id).toBe('acme/chat-1')
    // No route detail leaves: the upstream model name stays inside.
    expect(JSON.stringify(body)).not.toContain('upstream-secret-model')
  })

  test('If-None-Match with the ETag: 304 without a body; another query: another ETag', async () => {
    const etag = (await gw.request('/api/public/models')).headers.get('etag')!
    const again = await gw.request('/api/public/models', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    const other = await gw.request('/api/public/models?q=nothing-matches')
    expect(other.headers.get('etag')).not.toBe(etag)
    expect((await gw.request('/api/public/models', { headers: { 'if-none-match': 'W/"stale"' } })).status).toBe(200)
  })

  test('out-of-range parameters are a 400 that says the range', async () => {
    const res = await gw.request('/api/public/models?pageSize=101')
    expect(res.status).toBe(400)
    expect((await json(res)).error.message).toContain('pageSize must be an integer from 1 to 100.')
  })
})
