// The admin API's account routes (admin/index.ts; README "Admin API"): users and keys through the
// token; a credit with an Idempotency-Key is applied once and its retry marked
// `Idempotent-Replayed: true`; roles; the catalog view; an unknown action is a 404; without
// ADMIN_TOKEN and without a session the admin API does not exist.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
const CATALOG = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])

describe('admin account routes on pglite+memory', () => {
  let gw: TestGateway
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await gw.request(path, {
      method,
      headers: { ...auth, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, headers: res.headers, body: (await res.json()) as any }
  }
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, CATALOG)
  }, 60_000)
  afterAll(() => gw.stop())

  test('create a user, credit it once per Idempotency-Key, find it by email', async () => {
    const email = `admin-index-${crypto.randomUUID()}@test.local`
    const user = await call('POST', '/api/admin/users', { email })
    expect(user.body.email).toBe(email)
    const credit = (amount: number) => call('POST', `/api/admin/users/${user.body.id}/credits`, { amount }, { 'idempotency-key': 'k-1' })
    const first = await credit(5)
    expect(first.body).toEqual({ balance: 5 })
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const retry = await credit(5)
    expect(retry.body).toEqual({ balance: 5 })
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect((await credit(6)).status).toBe(409)
    const found = await call('GET', `/api/admin/users?email=${encodeURIComponent(email.toUpperCase())}`)
    expect(found.body.items).toEqual([expect.objectContaining({ id: user.body.id, balance: 5 })])
  })

  test('keys: create, list with the period spend, revoke; roles; an unknown action 404', async () => {
    const { userId } = await gw.user(0)
    const key = await call('POST', '/api/admin/keys', { userId, name: 'ops', rpm: 5000 })
    expect(key.body.key).toStartWith('sk-')
    const listed = (await call('GET', `/api/admin/users/${userId}/keys`)).body.items
    expect(listed.find((k: any) => k.id === key.body.id)).toMatchObject({ name: 'ops', rpm: 5000, spent: 0 })
    expect((await call('DELETE', `/api/admin/keys/${key.body.id}`)).body).toEqual({ id: key.body.id, revoked: true })
    expect((await call('POST', `/api/admin/users/${userId}/role`, { role: 'admin' })).status).toBe(200)
    expect((await call('POST', `/api/admin/users/${userId}/role`, { role: 'root' })).status).toBe(422)
    expect((await call('POST', `/api/admin/users/${userId}/promote`)).status).toBe(404)
  })

  test('the catalog view shows the loaded models', async () => {
    const { status, body } = await call('GET', '/api/admin/catalog')
    expect(status).toBe(200)
    expect(JSON.stringify(body)).toContain('acme/chat-1')
  })
})

describe('without ADMIN_TOKEN', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, CATALOG, { ADMIN_TOKEN: '' })
  }, 60_000)
  afterAll(() => gw.stop())

  test('the admin API does not exist: 404 even with a bearer token', async () => {
    const res = await gw.request('/api/admin/users', { headers: auth })
    expect(res.status).toBe(404)
  })
})
