// The console's request context (docs/security.md "Order of checks"): every call counts against
// its address (the API limit, RateLimit headers on every answer, the auth limit's on auth
// writes); a cross-site write is refused; a caller without a session gets 401 before its body or
// query is looked at; then the body and the query's safe-text rule; then the schema.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { API_LIMIT, AUTH_LIMIT } from '../../../src/console/http/limits.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp } from '../helpers.ts'

describe('console request context on pglite+memory', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      MAX_BODY_BYTES: '2048',
    })
  }, 60_000)
  afterAll(() => gw.stop())

  test('RateLimit headers on every answer: the API limit on reads, the tighter auth limit on auth writes', async () => {
    const b = browser(gw)
    const read = await b.get('/api/public/models')
    expect(read.headers.get('ratelimit-limit')).toBe(String(API_LIMIT.limit))
    expect(read.headers.get('ratelimit-remaining')).toBe(String(API_LIMIT.limit - 1))
    const write = await b.post('/api/auth/login', {})
    expect(write.headers.get('ratelimit-limit')).toBe(String(AUTH_LIMIT.limit))
    // Refusals carry them too.
    expect((await b.get('/api/keys')).headers.get('ratelimit-limit')).toBe(String(API_LIMIT.limit))
  })

  test('a cross-site write is refused with 403, a same-origin one passes, a read is never cross-site', async () => {
    const u = await signUp(gw)
    const cross = await u.post('/api/keys', { name: 'x' }, { origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect((await json(cross)).error.message).toBe('Cross-site request refused.')
    const fetchSite = await u.post('/api/keys', { name: 'x' }, { origin: '', 'sec-fetch-site': 'cross-site' })
    expect(fetchSite.status).toBe(403)
    expect((await u.post('/api/keys', { name: 'x' })).status).toBe(201)
    expect((await u.fetch('/api/keys', { headers: { origin: 'https://evil.example' } })).status).toBe(200)
    expect((await json(u.get('/api/keys'))).items).toHaveLength(1)
  })

  test('without a session: 401 whatever the body or query; with one: 400/413/422 for them', async () => {
    const anon = browser(gw)
    for (const body of ['{not json', 'x'.repeat(5000), '{"name": 5}'])
      expect(
        (await anon.fetch('/api/keys', { method: 'POST', headers: { 'content-type': 'application/json', origin: anon.base }, body }))
          .status,
      ).toBe(401)
    expect((await anon.get('/api/keys?limit=0')).status).toBe(401)
    const u = await signUp(gw)
    const send = (body: string) =>
      u.fetch('/api/keys', { method: 'POST', headers: { 'content-type': 'application/json', origin: u.base }, body })
    expect((await send('{not json')).status).toBe(400)
    expect((await send(JSON.stringify({ name: 'x'.repeat(5000) }))).status).toBe(413)
    expect((await send('{"name": 5}')).status).toBe(422)
    expect((await u.get('/api/logs?model=%00')).status).toBe(400)
  })
})
