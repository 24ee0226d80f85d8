// Key settings (docs/api.md "Key settings") through the console and the admin API: accepted at
// creation and by PATCH (absent = unchanged, null = cleared), shown by every listing, bad values a
// 422 naming the field that changes nothing, and a change in force on /v1 at once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spendPeriod } from '../../src/billing/spend-period.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from './helpers.ts'

const SETTINGS = { models: ['acme/*'], ipAllowlist: ['10.0.0.0/8', 'fd00::/8'], tpm: 50_000, maxConcurrent: 4, limitReset: 'daily' }

/** Each bad value and the field its 422 names. */
const BAD: [Record<string, unknown>, string][] = [
  [{ ipAllowlist: ['10.0.0.0/33'] }, 'ipAllowlist[0]'],
  [{ limitReset: 'hourly' }, 'limitReset'],
  [{ tpm: -5 }, 'tpm'],
  [{ maxConcurrent: 0 }, 'maxConcurrent'],
  [{ models: ['acme/chat-1', 'nobody/*'] }, 'models[1]'],
  [{ tmp: 5 }, 'tmp'],
]

for (const backends of ALL_BACKENDS) {
  describe(`key settings on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), CONSOLE_ENV)
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const patch = (u: SignedIn, id: string, body: unknown) =>
      u.fetch(`/api/keys/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', origin: u.base },
        body: JSON.stringify(body),
      })
    const admin = (method: string, path: string, body?: unknown) =>
      gw.request(path, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })

    test('console: created with every setting, listed with them and resetsAt; PATCH changes, keeps and clears', async () => {
      const u = await signUp(gw)
      const created = await json(u.post('/api/keys', { name: 'team', limit: 5, ...SETTINGS }))
      const resetsAt = new Date(spendPeriod('daily', Date.now()).endMs).toISOString()
      expect(created).toMatchObject({ ...SETTINGS, resetsAt, limit: 5, spent: 0 })
      expect((await json(u.get('/api/keys'))).items[0]).toMatchObject({ ...SETTINGS, resetsAt })
      const changed = await json(patch(u, created.id, { tpm: 10, models: null, limitReset: 'monthly', name: 'renamed' }))
      expect(changed).toMatchObject({ name: 'renamed', tpm: 10, models: null, limitReset: 'monthly', ipAllowlist: SETTINGS.ipAllowlist })
      expect(changed.resetsAt).toBe(new Date(spendPeriod('monthly', Date.now()).endMs).toISOString())
      expect((await json(u.get('/api/keys'))).items[0]).toEqual(changed)
    })

    test("limits the operator set: the owner's PATCH lifting or loosening any of them is 403 naming it and changes nothing; tightening works", async () => {
      const u = await signUp(gw)
      const set = {
        limit: 5,
        limitReset: 'monthly',
        rpm: 100,
        tpm: 50_000,
        maxConcurrent: 4,
        models: ['acme/*'],
        ipAllowlist: ['10.0.0.0/8', 'fd00::/8'],
      }
      const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString()
      const { id } = await json(admin('POST', '/api/admin/keys', { userId: u.id, ...set, expiresAt }))
      const [view] = (await json(u.get('/api/keys'))).items
      expect(view.operatorLimits).toEqual({ ...set, expiresAt })
      // The attack: all four cleared at once.
      const lifted = await patch(u, id, { limit: null, ipAllowlist: null, models: null, maxConcurrent: null })
      expect([lifted.status, (await json(lifted)).error]).toEqual([
        403,
        { code: 'FORBIDDEN', message: 'limit: set by the operator; you may lower it, not lift or loosen it.' },
      ])
      const later = new Date(Date.now() + 60 * 86_400_000).toISOString()
      for (const [body, field] of [
        [{ limit: null }, 'limit'],
        [{ limit: 5.000001 }, 'limit'],
        [{ limitReset: 'daily' }, 'limitReset'],
        [{ limitReset: 'weekly' }, 'limitReset'],
        [{ rpm: null }, 'rpm'],
        [{ rpm: 101 }, 'rpm'],
        [{ tpm: null }, 'tpm'],
        [{ tpm: 50_001 }, 'tpm'],
        [{ maxConcurrent: null }, 'maxConcurrent'],
        [{ maxConcurrent: 5 }, 'maxConcurrent'],
        [{ expiresAt: null }, 'expiresAt'],
        [{ expiresAt: later }, 'expiresAt'],
        [{ models: null }, 'models'],
        [{ models: ['*'] }, 'models'],
        [{ models: ['acme/chat-1', '*-1'] }, 'models'],
        [{ ipAllowlist: null }, 'ipAllowlist'],
        [{ ipAllowlist: ['0.0.0.0/0'] }, 'ipAllowlist'],
        [{ ipAllowlist: ['10.0.0.0/7'] }, 'ipAllowlist'],
        [{ ipAllowlist: ['10.1.0.0/16', '11.0.0.1'] }, 'ipAllowlist'],
      ] as [Record<string, unknown>, string][]) {
        const res = await patch(u, id, { name: 'changed', ...body })
        const { error } = await json(res)
        expect([JSON.stringify(body), res.status, error.code, error.message.split(':')[0]]).toEqual([
          JSON.stringify(body),
          403,
          'FORBIDDEN',
          field,
        ])
      }
      expect((await json(u.get('/api/keys'))).items[0]).toEqual(view)
      // Tightening is the owner's to do; the operator's bounds stay and the owner may go back up to them.
      const tighter = {
        limit: 2,
        limitReset: null,
        rpm: 10,
        tpm: 100,
        maxConcurrent: 1,
        models: ['acme/chat-1'],
        ipAllowlist: ['10.1.0.0/16', 'fd00:1::/32'],
      }
      const earlier = new Date(Date.now() + 86_400_000).toISOString()
      const changed = await json(patch(u, id, { ...tighter, expiresAt: earlier }))
      expect(changed).toMatchObject({ ...tighter, expiresAt: earlier, operatorLimits: view.operatorLimits })
      expect((await patch(u, id, { limit: 5, limitReset: 'monthly', rpm: 100, models: ['acme/*'] })).status).toBe(200)
      // Limits the operator did not set stay the owner's; once the operator clears one, so does it.
      const own = await json(u.post('/api/keys', {}))
      expect(own.operatorLimits).toBeNull()
      expect((await patch(u, own.id, { limit: 1, maxConcurrent: 2 })).status).toBe(200)
      expect((await patch(u, own.id, { limit: null, maxConcurrent: null })).status).toBe(200)
      expect((await admin('PATCH', `/api/admin/keys/${id}`, { limit: null, maxConcurrent: null })).status).toBe(200)
      const cleared = await patch(u, id, { limit: 1_000, maxConcurrent: null, limitReset: 'daily' })
      expect([cleared.status, (await json(cleared)).operatorLimits]).toEqual([
        200,
        { rpm: 100, tpm: 50_000, expiresAt, models: ['acme/*'], ipAllowlist: ['10.0.0.0/8', 'fd00::/8'] },
      ])
    })

    test('console: bad values and unknown members are 422 naming the field, and change nothing', async () => {
      const u = await signUp(gw)
      const created = await json(u.post('/api/keys', { name: 'x', ...SETTINGS }))
      for (const [body, field] of BAD) {
        for (const res of [await u.post('/api/keys', body), await patch(u, created.id, { name: 'changed', ...body })]) {
          expect(res.status).toBe(422)
          const { error } = await json(res)
          expect(error.code).toBe('VALIDATION_FAILED')
          expect(error.message.startsWith(`${field}:`)).toBe(true)
        }
      }
      const { items } = await json(u.get('/api/keys'))
      expect(items).toHaveLength(1)
      expect(items[0]).toMatchObject({ name: 'x', ...SETTINGS })
    })

    test('console: a cross-site PATCH is refused and changes nothing', async () => {
      const u = await signUp(gw)
      const created = await json(u.post('/api/keys', {}))
      const res = await u.fetch(`/api/keys/${created.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ models: ['acme/chat-1'] }),
      })
      expect(res.status).toBe(403)
      expect((await json(u.get('/api/keys'))).items[0].models).toBeNull()
    })

    test("console: another user's key is 404 to PATCH", async () => {
      const owner = await signUp(gw)
      const other = await signUp(gw)
      const created = await json(owner.post('/api/keys', {}))
      expect((await patch(other, created.id, { tpm: 1 })).status).toBe(404)
      expect((await json(owner.get('/api/keys'))).items[0].tpm).toBeNull()
    })

    test('admin: created with settings, PATCHed, listed; bad values 422 naming the field; a missing key 404', async () => {
      const user = await json(admin('POST', '/api/admin/users', { email: `${crypto.randomUUID()}@example.com` }))
      const { id } = await json(admin('POST', '/api/admin/keys', { userId: user.id, ...SETTINGS }))
      const changed = await json(admin('PATCH', `/api/admin/keys/${id}`, { maxConcurrent: null, ipAllowlist: ['::1'] }))
      expect(changed).toMatchObject({ id, maxConcurrent: null, ipAllowlist: ['::1'], tpm: SETTINGS.tpm, models: SETTINGS.models })
      expect((await json(admin('GET', `/api/admin/users/${user.id}/keys`))).items[0]).toEqual(changed)
      for (const [body, field] of BAD) {
        for (const res of [
          await admin('POST', '/api/admin/keys', { userId: user.id, ...body }),
          await admin('PATCH', `/api/admin/keys/${id}`, body),
        ]) {
          expect(res.status).toBe(422)
          expect((await json(res)).error.message.startsWith(`${field}:`)).toBe(true)
        }
      }
      expect((await json(admin('GET', `/api/admin/users/${user.id}/keys`))).items).toEqual([changed])
      expect((await admin('PATCH', '/api/admin/keys/key_missing', { tpm: 1 })).status).toBe(404)
    })

    test('a PATCH is in force on /v1 at once on the instance that made it', async () => {
      const u = await signUp(gw)
      const created = await json(u.post('/api/keys', {}))
      await admin('POST', `/api/admin/users/${u.id}/credits`, { amount: 5 })
      const call = () => gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(created.key), body: chatBody() })
      expect((await call()).status).toBe(200)
      await json(patch(u, created.id, { models: ['acme/chat-1'], ipAllowlist: ['192.0.2.0/24'] }))
      expect((await call()).status).toBe(403)
      await json(patch(u, created.id, { ipAllowlist: null }))
      expect((await call()).status).toBe(200)
    })
  })
}
