// /v1/models shapes, the admin API contract, and the health endpoints.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

const admin = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...extra })

describe('HTTP surface (Postgres + Redis)', () => {
  let up: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
    const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
    catalog.models.push({ ...catalog.models[0]!, id: 'acme/old', deprecated: true })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, catalog)
  })
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  test('GET /v1/models: shape A by default, shape B with ?shape=b; deprecated models hidden; key required', async () => {
    const u = await gw.user(1)
    const a = (await (await gw.request('/v1/models', { headers: bearer(u.key) })).json()) as any
    expect(a.object).toBe('list')
    expect(a.data.map((m: any) => m.id)).toEqual(['acme/chat-1'])
    expect(a.data[0]).toMatchObject({ object: 'model', owned_by: 'acme', context_window: 128_000, pricing: { input: 1.5e-7, output: 6e-7, currency: 'USD' } })
    expect(typeof a.data[0].created).toBe('number')
    const b = (await (await gw.request('/v1/models?shape=b', { headers: bearer(u.key) })).json()) as any
    expect(b.service_mode).toBe('performance')
    expect(b.data[0]).toMatchObject({ service_mode: 'performance', capabilities: ['chat', 'tools'], pricing: { input: 150, output: 600, cache_read: 75, cache_write: 187.5, unit: '1M_tokens', currency: 'credits' } })
    const anon = await gw.request('/v1/models')
    expect(anon.status).toBe(401)
    expect(anon.headers.get('x-request-id')).toMatch(/^req_/)
  })

  test('admin API: users, credits (idempotent with Idempotency-Key), keys, revocation', async () => {
    const created = await gw.request('/api/admin/users', { method: 'POST', headers: admin(), body: JSON.stringify({ email: 'Admin.Test@Example.COM' }) })
    const user = (await created.json()) as any
    expect(user.email).toBe('admin.test@example.com')
    expect(user.id).toMatch(/^usr_/)
    const dup = await gw.request('/api/admin/users', { method: 'POST', headers: admin(), body: JSON.stringify({ email: 'admin.test@example.com' }) })
    expect(dup.status).toBe(409)
    const credit = (body: unknown, h: Record<string, string> = {}) => gw.request(`/api/admin/users/${user.id}/credits`, { method: 'POST', headers: admin(h), body: JSON.stringify(body) })
    expect(await (await credit({ amount: 12.5, note: 'welcome' }, { 'idempotency-key': 'k1' })).json()).toEqual({ balance: 12.5 })
    expect((await credit({ amount: 12.5 }, { 'idempotency-key': 'k1' })).status).toBe(409)
    expect(await (await credit({ amount: -2.25 })).json()).toEqual({ balance: 10.25 })
    expect((await credit({ amount: 0 })).status).toBe(400)
    expect((await credit({ amount: 'ten' })).status).toBe(422)
    expect((await gw.request('/api/admin/users/usr_nobody/credits', { method: 'POST', headers: admin(), body: JSON.stringify({ amount: 1 }) })).status).toBe(404)

    const key = (await (await gw.request('/api/admin/keys', { method: 'POST', headers: admin(), body: JSON.stringify({ userId: user.id, name: 'ci', rpm: 10 }) })).json()) as any
    expect(key.key).toMatch(/^sk-[0-9A-Za-z]{40}$/)
    expect((await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key.key), body: chatBody() })).status).toBe(200)
    const del = await gw.request(`/api/admin/keys/${key.id}`, { method: 'DELETE', headers: admin() })
    expect(await del.json()).toEqual({ id: key.id, revoked: true })
    expect((await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key.key), body: chatBody() })).status).toBe(401)
    await gw.settled()
    const books = await gw.books(user.id)
    expect(books.ledgerSum).toBe(books.balance)
    expect(books.balance).toBe(10_250_000n - 221n)
  })

  test('admin API refuses a wrong or missing token', async () => {
    for (const h of [{}, { authorization: 'Bearer wrong-token-wrong-token' }] as Record<string, string>[]) {
      const res = await gw.request('/api/admin/users', { method: 'POST', headers: { 'content-type': 'application/json', ...h }, body: JSON.stringify({ email: 'x@y.z' }) })
      expect(res.status).toBe(401)
      expect(((await res.json()) as any).error.code).toBe('UNAUTHORIZED')
    }
  })

  test('health: /healthz and /readyz', async () => {
    expect(await (await gw.request('/healthz')).json()).toEqual({ status: 'ok' })
    const ready = await gw.request('/readyz')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', database: true, store: true })
    const missing = await gw.request('/nope')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('x-request-id')).toMatch(/^req_/)
  })
})

describe('admin API without ADMIN_TOKEN', () => {
  test('answers 404', async () => {
    const gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), { ADMIN_TOKEN: '' })
    try {
      const res = await gw.request('/api/admin/users', { method: 'POST', headers: admin(), body: JSON.stringify({ email: 'x@y.z' }) })
      expect(res.status).toBe(404)
    } finally {
      await gw.stop()
    }
  })
})
