// Admin and console bodies are strict (docs/security.md "Input"): a member a route does not know
// is refused with 422 naming it and the member meant, and nothing is done; a union names its
// values. The /v1 bodies stay tolerant (test/protocols/common/parse.test.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKeys, users } from '../../src/db/schema/index.ts'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { CONSOLE_ENV, json, signUp, browser } from '../console/helpers.ts'

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

describe('strict admin and console bodies', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      SANDBOX_PAYMENTS_SECRET: 'sandbox-secret-for-tests',
    })
  })
  afterAll(() => gw.stop())

  const adminPost = (path: string, body: unknown, headers: Record<string, string> = admin) =>
    gw.request(path, { method: 'POST', headers, body: JSON.stringify(body) })
  async function refused(res: Response, message: string) {
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message } })
  }

  test('admin: an unknown member of each body is named with the one meant, and nothing changes', async () => {
    const email = `strict-${crypto.randomUUID()}@example.com`
    await refused(
      await adminPost('/api/admin/users', { email, pasword: 'long enough pw' }),
      'pasword: unknown field; did you mean password?',
    )
    expect(await gw.runtime.deps.db.select().from(users).where(eq(users.email, email))).toEqual([])
    const user = await json(adminPost('/api/admin/users', { email }))
    await refused(
      await adminPost(`/api/admin/users/${user.id}/credits`, { amount: 5, notes: 'x' }),
      'notes: unknown field; did you mean note?',
    )
    expect(await gw.books(user.id)).toEqual({ balance: 0n, ledgerSum: 0n })
    const soon = new Date(Date.now() + 3_600_000).toISOString()
    await refused(
      await adminPost('/api/admin/keys', { userId: user.id, expiresat: soon }),
      'expiresat: unknown field; did you mean expiresAt?',
    )
    expect(await gw.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id))).toEqual([])
    await refused(await adminPost('/api/admin/refunds', { transactionId: 'txn_x', amout: 1 }), 'amout: unknown field; did you mean amount?')
    await refused(await adminPost('/api/admin/users', { email, role: 'admin' }), 'role: unknown field')
  })

  test('admin: the token is checked before the body, so an unauthenticated caller learns nothing of it', async () => {
    const res = await adminPost('/api/admin/users', { emial: 'x' }, { 'content-type': 'application/json' })
    expect(res.status).toBe(401)
  })

  test('console: register, login, keys and top-ups refuse unknown members; a union names its values', async () => {
    const email = `strict-${crypto.randomUUID()}@example.com`
    const b = browser(gw)
    await refused(await b.post('/api/auth/register', { email, password: 'correct horse battery', name: 'Ann' }), 'name: unknown field')
    expect(await gw.runtime.deps.db.select().from(users).where(eq(users.email, email))).toEqual([])
    await refused(await b.post('/api/auth/login', { email, password: 'x', rememberMe: true }), 'rememberMe: unknown field')
    const u = await signUp(gw)
    await refused(await u.post('/api/keys', { name: 'ci', limt: 2 }), 'limt: unknown field; did you mean limit?')
    await refused(await u.post('/api/keys', { serviceMode: 'fast' }), 'serviceMode: must be performance')
    expect(await gw.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.userId, u.id))).toEqual([])
    await refused(await u.post('/api/wallet/topup', { amount: 10, provider: 'sandbox', currency: 'USD' }), 'currency: unknown field')
    // Two wrong members: both named, so a form can mark each; nothing is made.
    await refused(
      await u.post('/api/keys', { name: 'ci', rpm: 0, limt: 2 }),
      'limt: unknown field; did you mean limit?; rpm: Expected integer to be greater or equal to 1',
    )
    expect(await gw.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.userId, u.id))).toEqual([])
    // Still accepted as documented.
    expect((await u.post('/api/keys', { name: 'ci', limit: 2 })).status).toBe(201)
  })
})
