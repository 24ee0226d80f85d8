// Who may call the admin API (docs/operators.md "Who may call the admin API"): the token, or an
// admin's console session with the console's cross-site refusal; a user's session gets 403 on
// every admin route and changes nothing; roles change through POST /users/:id/role, audited.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from '../console/helpers.ts'

const token = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

/** One route of each admin feature, with a body that would be valid. */
const ROUTES = (userId: string): [string, string, unknown][] => [
  ['GET', '/api/admin/users', undefined],
  ['GET', `/api/admin/users/${userId}`, undefined],
  ['GET', `/api/admin/users/${userId}/transactions`, undefined],
  ['POST', `/api/admin/users/${userId}/credits`, { amount: 5 }],
  ['POST', `/api/admin/users/${userId}/role`, { role: 'admin' }],
  ['POST', `/api/admin/users/${userId}/disable`, undefined],
  ['GET', '/api/admin/audit', undefined],
  ['GET', '/api/admin/reports/summary?from=2026-01-01&to=2026-01-31', undefined],
  ['GET', '/api/admin/reports/daily?from=2026-01-01&to=2026-01-31', undefined],
  ['GET', '/api/admin/gateways', undefined],
  ['POST', '/api/admin/routes/disable', { model: 'acme/chat-1', gateway: 'gw-a', upstreamModel: 'upstream-secret-model' }],
  ['GET', '/api/admin/ledger/health', undefined],
  ['GET', '/api/admin/ledger/dead-letters', undefined],
]

for (const backends of ALL_BACKENDS) {
  describe(`admin gate on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), CONSOLE_ENV)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const withToken = (method: string, path: string, body?: unknown) =>
      gw.request(path, { method, headers: token, body: body === undefined ? undefined : JSON.stringify(body) })
    const send = (who: SignedIn, method: string, path: string, body?: unknown) => (method === 'GET' ? who.get(path) : who.post(path, body))
    const makeAdmin = async (who: SignedIn) =>
      expect((await withToken('POST', `/api/admin/users/${who.id}/role`, { role: 'admin' })).status).toBe(200)

    test("a user's session gets 403 on every admin route, before its body is read; nothing changes", async () => {
      const user = await signUp(gw)
      for (const [method, path, body] of ROUTES(user.id)) {
        const res = await send(user, method, path, body ?? (method === 'POST' ? { wrong: true } : undefined))
        expect([method, path, res.status]).toEqual([method, path, 403])
        expect((await json(res)).error.code).toBe('FORBIDDEN')
      }
      const me = await json(await withToken('GET', `/api/admin/users/${user.id}`))
      expect(me).toMatchObject({ role: 'user', disabled: false, balance: 0 })
      expect((await json(await withToken('GET', '/api/admin/gateways'))).items[0].routes[0].enabled).toBe(true)
    })

    test("an admin's session works on every admin route; /api/auth/me says admin", async () => {
      const admin = await signUp(gw)
      await makeAdmin(admin)
      expect(await json(admin.get('/api/auth/me'))).toEqual({ id: admin.id, email: admin.email, role: 'admin', verified: false })
      const other = await signUp(gw)
      for (const [method, path, body] of ROUTES(other.id)) {
        const res = await send(admin, method, path, body)
        expect([method, path, res.status]).toEqual([method, path, 200])
      }
      await withToken('POST', '/api/admin/routes/enable', { model: 'acme/chat-1', gateway: 'gw-a', upstreamModel: 'upstream-secret-model' })
    })

    test('an admin session is refused cross-site (403) and without a valid cookie (401); the token still works', async () => {
      const admin = await signUp(gw)
      await makeAdmin(admin)
      const target = await signUp(gw)
      const evil = await admin.post(`/api/admin/users/${target.id}/credits`, { amount: 5 }, { origin: 'https://evil.example' })
      expect(evil.status).toBe(403)
      const stale = await admin.fetch('/api/admin/users', { headers: { cookie: 'svc_session=not-a-session' } })
      expect(stale.status).toBe(401)
      // Elysia's cookie jar decodes a {…} value as JSON: still no session, not an error.
      for (const path of ['/api/admin/users', '/api/auth/me'])
        expect((await admin.fetch(path, { headers: { cookie: 'svc_session={"id":1}' } })).status).toBe(401)
      expect((await json(await withToken('GET', `/api/admin/users/${target.id}`))).balance).toBe(0)
    })

    test('POST /users/:id/role grants and takes admin, audited with before/after; strict body; an admin cannot demote themself', async () => {
      const admin = await signUp(gw)
      await makeAdmin(admin)
      const user = await signUp(gw)
      const grant = await admin.post(`/api/admin/users/${user.id}/role`, { role: 'admin' })
      expect(await json(grant)).toEqual({ id: user.id, role: 'admin' })
      expect((await user.get('/api/admin/users')).status).toBe(200)
      expect(await json(admin.post(`/api/admin/users/${user.id}/role`, { role: 'user' }))).toEqual({ id: user.id, role: 'user' })
      expect((await user.get('/api/admin/users')).status).toBe(403)
      const audit = await json(withToken('GET', `/api/admin/audit?target=${user.id}`))
      expect(audit.items.map((a: any) => [a.action, a.actor, a.actorEmail, a.before, a.after])).toEqual([
        ['user.role', admin.id, admin.email, { role: 'admin' }, { role: 'user' }],
        ['user.role', admin.id, admin.email, { role: 'user' }, { role: 'admin' }],
      ])
      const unknown = await admin.post(`/api/admin/users/${user.id}/role`, { role: 'admin', rol: 'x' })
      expect(unknown.status).toBe(422)
      expect((await admin.post(`/api/admin/users/${user.id}/role`, { role: 'root' })).status).toBe(422)
      expect((await admin.post(`/api/admin/users/${admin.id}/role`, { role: 'user' })).status).toBe(409)
      expect((await withToken('POST', '/api/admin/users/usr_nobody/role', { role: 'admin' })).status).toBe(404)
      expect((await json(await withToken('GET', `/api/admin/users/${user.id}`))).role).toBe('user')
    })

    test('a credit by an admin session moves the balance by exactly $5 and the audit log has it', async () => {
      const admin = await signUp(gw)
      await makeAdmin(admin)
      const user = await signUp(gw)
      await withToken('POST', `/api/admin/users/${user.id}/credits`, { amount: 1.25 })
      const res = await admin.post(`/api/admin/users/${user.id}/credits`, { amount: 5, note: 'goodwill' })
      expect(await json(res)).toEqual({ balance: 6.25 })
      const [last] = (await json(withToken('GET', `/api/admin/audit?target=${user.id}&limit=1`))).items
      expect(last).toMatchObject({
        action: 'user.credit',
        actor: admin.id,
        before: { balance: 1.25 },
        after: { balance: 6.25, amount: 5 },
        note: 'goodwill',
      })
      const books = await gw.books(user.id)
      expect(books.balance).toBe(6_250_000n)
      expect(books.ledgerSum).toBe(6_250_000n)
    })

    test('the audit log pages newest first by cursor', async () => {
      const user = await signUp(gw)
      for (const amount of [1, 2, 3]) await withToken('POST', `/api/admin/users/${user.id}/credits`, { amount })
      const first = await json(withToken('GET', `/api/admin/audit?target=${user.id}&limit=2`))
      expect(first.items.map((a: any) => a.after.amount)).toEqual([3, 2])
      const second = await json(withToken('GET', `/api/admin/audit?target=${user.id}&limit=2&cursor=${first.nextCursor}`))
      expect(second.items.map((a: any) => [a.after.amount, a.actor])).toEqual([[1, 'token']])
      expect(second.nextCursor).toBeNull()
      expect((await withToken('GET', '/api/admin/audit?limit=0')).status).toBe(400)
    })
  })
}
