// The admin API's request context (admin/context.ts): the gate runs before the body is read, so
// a caller without the token learns nothing about its input (401 whatever the body); the body
// limit, the safe-text rule and the schema come after; each change is audited under the actor the
// gate found: the token, or an admin's console session with their email.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { setRole } from '../../src/admin/roles.ts'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { CONSOLE_ENV, json, signUp } from '../console/helpers.ts'

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

describe('admin context on pglite+memory', () => {
  let gw: TestGateway
  const post = (path: string, body: string, headers: Record<string, string>) => gw.request(path, { method: 'POST', headers, body })
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      ...CONSOLE_ENV,
      MAX_BODY_BYTES: '2048',
    })
  }, 60_000)
  afterAll(() => gw.stop())

  test('without the token, every body gets the same 401: invalid JSON, too large, wrong schema', async () => {
    const bad = { 'content-type': 'application/json', authorization: 'Bearer wrong-token-000000000' }
    for (const body of ['{not json', 'x'.repeat(5000), '{"email": 1}', '{"email":"a@b.co"}']) {
      const res = await post('/api/admin/users', body, bad)
      expect(res.status).toBe(401)
      expect((await json(res)).error.code).toBe('UNAUTHORIZED')
    }
  })

  test('with the token: invalid JSON 400, too large 413, wrong schema 422, a NUL in the query refused', async () => {
    expect((await post('/api/admin/users', '{not json', auth)).status).toBe(400)
    expect((await post('/api/admin/users', JSON.stringify({ email: 'x'.repeat(5000) }), auth)).status).toBe(413)
    expect((await post('/api/admin/users', '{"email": 1}', auth)).status).toBe(422)
    expect((await gw.request('/api/admin/users?email=%00', { headers: auth })).status).toBe(400)
  })

  test('changes are audited under the actor: the token, or the admin signed in to the console', async () => {
    const created = await json(post('/api/admin/users', JSON.stringify({ email: `${crypto.randomUUID()}@test.local` }), auth))
    const admin = await signUp(gw)
    await setRole(gw.runtime.deps.db, admin.id, 'admin')
    const res = await admin.post(`/api/admin/users/${created.id}/disable`)
    expect(res.status).toBe(200)
    const audit = await json(gw.request(`/api/admin/audit?target=${created.id}`, { headers: auth }))
    expect(audit.items.map((i: any) => [i.action, i.actor, i.actorEmail])).toEqual([
      ['user.disable', admin.id, admin.email],
      ['user.create', 'token', null],
    ])
  })
})
