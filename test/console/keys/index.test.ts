// GET/POST /api/keys, PATCH/DELETE /api/keys/:id (docs/console.md "API keys"): a session is
// required; a created key is 201 with its secret once, and the secret works on /v1; listings never
// show it; PATCH changes, DELETE revokes (the key is refused on /v1 at once); unknown members are
// refused; another user's key is a 404.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

describe('key routes on pglite+memory', () => {
  let gw: TestGateway
  let me: SignedIn
  let other: SignedIn
  const patch = (u: SignedIn, id: string, body: unknown) =>
    u.fetch(`/api/keys/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: u.base },
      body: JSON.stringify(body),
    })
  const models = (key: string) => gw.request('/v1/models', { headers: { authorization: `Bearer ${key}` } })
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
    me = await signUp(gw)
    other = await signUp(gw)
  }, 60_000)
  afterAll(() => gw.stop())

  test('without a session: 401', async () => {
    expect((await browser(gw).get('/api/keys')).status).toBe(401)
    expect((await browser(gw).post('/api/keys', {})).status).toBe(401)
  })

  test('create: 201 with the secret, which works on /v1; the listing has no secret', async () => {
    const res = await me.post('/api/keys', { name: 'ci', limit: 5 })
    expect(res.status).toBe(201)
    const created = await json(res)
    expect(created).toMatchObject({ name: 'ci', status: 'active', limit: 5 })
    expect((await models(created.key)).status).toBe(200)
    const list = await json(me.get('/api/keys'))
    expect(list.items.map((k: any) => k.id)).toEqual([created.id])
    expect(JSON.stringify(list)).not.toContain(created.key)
  })

  test('PATCH changes and DELETE revokes: refused on /v1 at once; a repeat keeps the first time', async () => {
    const created = await json(me.post('/api/keys', { name: 'old' }))
    const changed = await patch(me, created.id, { name: 'new', limit: null })
    expect(changed.status).toBe(200)
    expect(await json(changed)).toMatchObject({ id: created.id, name: 'new', limit: null })
    const revoked = await json(me.del(`/api/keys/${created.id}`))
    expect(revoked.status).toBe('revoked')
    expect((await models(created.key)).status).toBe(401)
    expect((await json(me.del(`/api/keys/${created.id}`))).revokedAt).toBe(revoked.revokedAt)
  })

  test("unknown members are refused; another user's key is 404 for PATCH and DELETE", async () => {
    expect((await me.post('/api/keys', { name: 'x', admin: true })).status).toBe(422)
    const created = await json(me.post('/api/keys', { name: 'mine' }))
    expect((await patch(other, created.id, { name: 'stolen' })).status).toBe(404)
    expect((await other.del(`/api/keys/${created.id}`)).status).toBe(404)
    expect((await json(me.get('/api/keys'))).items.find((k: any) => k.id === created.id)).toMatchObject({ name: 'mine', status: 'active' })
  })
})
