// Admin API, operator reads and switches (README "Admin API"): users with balances (paged,
// filtered), a user's keys, disable/enable (a disabled user's keys and console are refused at
// once, and work again when enabled), catalog reload from CATALOG_FILE without a restart.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rm } from 'node:fs/promises'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectChatError, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

for (const backends of ALL_BACKENDS) {
  describe(`admin directory on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    const catalogPath = `/tmp/tollgate-admin-catalog-${process.pid}-${backends.db}.json`
    const baseCatalog = () => simpleCatalog([{ id: 'gw-a', url: up.url }])
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      await Bun.write(catalogPath, JSON.stringify(baseCatalog()))
      gw = await startTestGateway(backends, baseCatalog(), { CATALOG_FILE: catalogPath })
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
      await rm(catalogPath, { force: true })
    }, 60_000)

    const send = async (method: string, path: string, body?: unknown) => {
      const res = await gw.request(path, { method, headers: admin, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as any }
    }
    const newUser = async (email: string, usd: number) => {
      const { body: user } = await send('POST', '/api/admin/users', { email, password: 'correct horse battery' })
      if (usd) await send('POST', `/api/admin/users/${user.id}/credits`, { amount: usd })
      return user as { id: string; email: string }
    }

    test('GET /users lists users with their balance, pages by cursor and filters by email', async () => {
      const tag = crypto.randomUUID().slice(0, 8)
      const a = await newUser(`a-${tag}@list.test`, 5)
      const b = await newUser(`b-${tag}@list.test`, 0)
      const all = await send('GET', `/api/admin/users?email=${tag}`)
      expect(all.status).toBe(200)
      expect(all.body.nextCursor).toBeNull()
      const byId = new Map(all.body.items.map((u: any) => [u.id, u]))
      expect(byId.size).toBe(2)
      expect(byId.get(a.id)).toMatchObject({ email: a.email, balance: 5, disabled: false })
      expect(byId.get(b.id)).toMatchObject({ email: b.email, balance: 0, disabled: false })
      const first = await send('GET', `/api/admin/users?email=${tag}&limit=1`)
      expect(first.body.items).toHaveLength(1)
      expect(typeof first.body.nextCursor).toBe('string')
      const second = await send('GET', `/api/admin/users?email=${tag}&limit=1&cursor=${first.body.nextCursor}`)
      expect(second.body.items).toHaveLength(1)
      expect(second.body.items[0].id).not.toBe(first.body.items[0].id)
      expect(second.body.nextCursor).toBeNull()
      expect((await send('GET', '/api/admin/users?limit=0')).status).toBe(400)
      expect((await send('GET', '/api/admin/users?limit=many')).status).toBe(400)
    }, 60_000)

    test('GET /users/:id/keys lists the keys by prefix, never the secret or its hash; unknown user → 404', async () => {
      const user = await newUser(`keys-${crypto.randomUUID()}@list.test`, 1)
      const k1 = (await send('POST', '/api/admin/keys', { userId: user.id, name: 'one', limit: 2.5, rpm: 30 })).body
      const k2 = (await send('POST', '/api/admin/keys', { userId: user.id, name: 'two' })).body
      await send('DELETE', `/api/admin/keys/${k2.id}`)
      const res = await send('GET', `/api/admin/users/${user.id}/keys`)
      expect(res.status).toBe(200)
      const byId = new Map(res.body.items.map((k: any) => [k.id, k]))
      expect(byId.get(k1.id)).toMatchObject({ name: 'one', prefix: k1.key.slice(0, 10), limit: 2.5, spent: 0, rpm: 30, revokedAt: null })
      expect(typeof (byId.get(k2.id) as any).revokedAt).toBe('string')
      // A key without its own rpm shows the default the console shows (DEFAULT_RPM), never null.
      expect((byId.get(k2.id) as any).rpm).toBe(gw.runtime.deps.config.defaultRpm)
      const text = JSON.stringify(res.body)
      expect(text).not.toContain(k1.key)
      expect(text).not.toContain('keyHash')
      expect((await send('GET', '/api/admin/users/usr_nobody/keys')).status).toBe(404)
    })

    test("disable refuses the user's keys and console sign-in at once, changes no money; enable lets them in again", async () => {
      const email = `off-${crypto.randomUUID()}@list.test`
      const user = await newUser(email, 3)
      const { key } = (await send('POST', '/api/admin/keys', { userId: user.id })).body
      expect((await postChat(gw, key)).status).toBe(200)
      await gw.settled()
      const before = await gw.books(user.id)

      expect(await send('POST', `/api/admin/users/${user.id}/disable`)).toEqual({ status: 200, body: { id: user.id, disabled: true } })
      await expectChatError(await postChat(gw, key), 401, 'UNAUTHORIZED')
      const login = await gw.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery' }),
      })
      expect(login.status).toBe(401)
      const listed = await send('GET', `/api/admin/users?email=${encodeURIComponent(email)}`)
      expect(listed.body.items[0].disabled).toBe(true)
      await gw.settled()
      expect(await gw.books(user.id)).toEqual(before)

      expect(await send('POST', `/api/admin/users/${user.id}/enable`)).toEqual({ status: 200, body: { id: user.id, disabled: false } })
      expect((await postChat(gw, key)).status).toBe(200)
      expect((await send('POST', '/api/admin/users/usr_nobody/disable')).status).toBe(404)
      expect((await send('POST', `/api/admin/users/${user.id}/explode`)).status).toBe(404)
    })

    test('POST /catalog/reload upserts CATALOG_FILE and serves it at once; a broken file → 400 naming it, catalog unchanged', async () => {
      const user = await newUser(`cat-${crypto.randomUUID()}@list.test`, 2)
      const { key } = (await send('POST', '/api/admin/keys', { userId: user.id })).body
      await expectChatError(
        await postChat(gw, key, { model: 'acme/chat-2', messages: [{ role: 'user', content: 'hi' }] }),
        503,
        'MODEL_UNAVAILABLE',
      )
      const next = baseCatalog()
      next.gateways.push({ id: 'gw-env', protocol: 'openai-chat', baseUrl: `${up.url}/v1`, apiKey: 'env:TOLLGATE_TEST_UNSET_KEY' })
      next.models.push({ ...next.models[0]!, id: 'acme/chat-2', name: 'Chat 2' })
      await Bun.write(catalogPath, JSON.stringify(next))
      const reload = await send('POST', '/api/admin/catalog/reload')
      expect(reload).toEqual({
        status: 200,
        body: { gateways: 2, models: 2, unsetKeyVariables: ['TOLLGATE_TEST_UNSET_KEY'], authProblems: [] },
      })
      expect((await postChat(gw, key, { model: 'acme/chat-2', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)

      await Bun.write(catalogPath, '{ "gateways": [')
      const broken = await send('POST', '/api/admin/catalog/reload')
      expect(broken.status).toBe(400)
      expect(broken.body.error.message).toContain(catalogPath)
      // Schema-valid but unpriceable (more than 9 decimals): refused before anything is written.
      const precise = baseCatalog()
      precise.models[0]!.pricing.input = 0.0000000001
      precise.models.push({ ...precise.models[0]!, id: 'acme/chat-3', name: 'Chat 3' })
      await Bun.write(catalogPath, JSON.stringify(precise))
      const refused = await send('POST', '/api/admin/catalog/reload')
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toContain('more than 9 decimals')
      await expectChatError(
        await postChat(gw, key, { model: 'acme/chat-3', messages: [{ role: 'user', content: 'hi' }] }),
        503,
        'MODEL_UNAVAILABLE',
      )
      expect((await postChat(gw, key, { model: 'acme/chat-2', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    })
  })
}

describe('catalog reload without CATALOG_FILE', () => {
  test('→ 409: there is no file to reload', async () => {
    const gw = await startTestGateway(ALL_BACKENDS.at(-1)!, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
    try {
      const res = await gw.request('/api/admin/catalog/reload', { method: 'POST', headers: admin })
      expect(res.status).toBe(409)
      expect(((await res.json()) as any).error.message).toContain('CATALOG_FILE')
    } finally {
      await gw.stop()
    }
  })
})
