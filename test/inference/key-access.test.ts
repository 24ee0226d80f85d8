// A key's allowlists on /v1 (docs/api.md "Key settings"): another model → 403 in each protocol's
// envelope with nothing reserved; /v1/models and /v1/models/{id} show only the allowed models;
// another client address (as TRUSTED_PROXIES resolves it, IPv4 and IPv6) → 403.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectChatError, postChat, reservedOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

function twoModels(url: string) {
  const catalog = simpleCatalog([{ id: 'gw-a', url }])
  const model = catalog.models[0]!
  return { ...catalog, models: [model, { ...model, id: 'beta/chat-2', name: 'Beta', provider: 'beta' }] }
}

const messages = (model: string) => JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
const responses = (model: string) => JSON.stringify({ model, input: 'hi' })

for (const backends of ALL_BACKENDS) {
  describe(`key allowlists on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, twoModels(up.url), { TRUSTED_PROXIES: '127.0.0.1,::1' })
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    test('another model: 403 in the chat, messages and responses envelopes; nothing reserved; the allowed model works', async () => {
      const k = await gw.user(5, { models: ['acme/*'] })
      const err = await expectChatError(await postChat(gw, k.key, { model: 'beta/chat-2' }), 403, 'FORBIDDEN')
      expect(err.message).toBe("This API key may not call model 'beta/chat-2'.")
      const m = await gw.request('/v1/messages', { method: 'POST', headers: bearer(k.key), body: messages('beta/chat-2') })
      expect(m.status).toBe(403)
      expect(await m.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } })
      const r = await gw.request('/v1/responses', { method: 'POST', headers: bearer(k.key), body: responses('beta/chat-2') })
      expect(r.status).toBe(403)
      expect(await r.json()).toMatchObject({ error: { type: 'permission_error', code: 'permission_denied' } })
      expect(await reservedOf(gw, k.userId)).toBe(0n)
      expect((await postChat(gw, k.key, { model: 'acme/chat-1' })).status).toBe(200)
    })

    test('/v1/models lists only the allowed models; /v1/models/{id} of another is 404', async () => {
      const k = await gw.user(0, { models: ['beta/chat-2'] })
      const list = (await (await gw.request('/v1/models', { headers: bearer(k.key) })).json()) as { data: { id: string }[] }
      expect(list.data.map((m) => m.id)).toEqual(['beta/chat-2'])
      expect((await gw.request('/v1/models/acme%2Fchat-1', { headers: bearer(k.key) })).status).toBe(404)
      expect((await gw.request('/v1/models/beta%2Fchat-2', { headers: bearer(k.key) })).status).toBe(200)
      const open = await gw.user(0)
      const all = (await (await gw.request('/v1/models', { headers: bearer(open.key) })).json()) as { data: { id: string }[] }
      expect(all.data.map((m) => m.id)).toEqual(['acme/chat-1', 'beta/chat-2'])
    })

    test('ipAllowlist: the client address as the trusted proxy forwards it, IPv4 and IPv6; another address is 403', async () => {
      const base = gw.listen()
      const k = await gw.user(5, { ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] })
      const from = (ip: string) =>
        fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          headers: { ...bearer(k.key), 'x-forwarded-for': ip },
          body: JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }] }),
        })
      expect((await from('203.0.113.9')).status).toBe(200)
      expect((await from('2001:db8::42')).status).toBe(200)
      const refused = await from('198.51.100.7')
      await expectChatError(refused, 403, 'FORBIDDEN')
      expect((await from('2001:db9::1')).status).toBe(403)
      // A spoofed hop left of the real client is not believed: the client is the right-most untrusted hop.
      expect((await from('203.0.113.9, 198.51.100.7')).status).toBe(403)
      const models = await fetch(`${base}/v1/models`, { headers: { ...bearer(k.key), 'x-forwarded-for': '198.51.100.7' } })
      expect(models.status).toBe(403)
      const read = (path: string, ip: string) => fetch(`${base}${path}`, { headers: { ...bearer(k.key), 'x-forwarded-for': ip } })
      expect((await read('/v1/key', '198.51.100.7')).status).toBe(403)
      expect((await read('/v1/key', '203.0.113.9')).status).toBe(200)
      expect((await read('/v1/models/acme%2Fchat-1', '198.51.100.7')).status).toBe(403)
      expect(await reservedOf(gw, k.userId)).toBe(0n)
    })

    test('count_tokens: another model is 403 in the messages envelope', async () => {
      const k = await gw.user(0, { models: ['acme/*'] })
      const res = await gw.request('/v1/messages/count_tokens', { method: 'POST', headers: bearer(k.key), body: messages('beta/chat-2') })
      expect(res.status).toBe(403)
      expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } })
    })
  })
}

/** `demo/off` (its fallback `beta/chat-2`) and `demo/alone` (none): both have every route switched off. */
function offModels(url: string) {
  const catalog = simpleCatalog([{ id: 'gw-a', url }])
  const model = catalog.models[0]!
  const off = (id: string, fallbacks: string[]) => ({ ...model, id, provider: 'demo', fallbacks, routes: [{ gateway: 'gw-a', model: id }] })
  return {
    ...catalog,
    models: [model, { ...model, id: 'beta/chat-2', provider: 'beta' }, off('demo/off', ['beta/chat-2']), off('demo/alone', [])],
  }
}

for (const backends of ALL_BACKENDS) {
  describe(`a key's allowlist against fallbacks of a switched-off model on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, offModels(up.url))
      for (const model of ['demo/off', 'demo/alone']) {
        const res = await gw.request('/api/admin/routes/disable', {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model, gateway: 'gw-a', upstreamModel: model }),
        })
        expect(res.status).toBe(200)
      }
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const call = async (key: string, path: string, body: Record<string, unknown>) => {
      const res = await gw.request(path, { method: 'POST', headers: bearer(key), body: JSON.stringify(body) })
      return [res.status, await res.json()] as const
    }
    const bodies = (model: string, extra: Record<string, unknown>): [string, Record<string, unknown>][] => [
      ['/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }], ...extra }],
      ['/v1/messages', { model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...extra }],
      ['/v1/responses', { model, input: 'hi', ...extra }],
    ]

    test('only fallbacks the key may not use: the answer of a model with no route, on all three protocols', async () => {
      const k = await gw.user(5, { models: ['demo/*'] })
      for (const extra of [{}, { models: ['demo/off', 'beta/chat-2'] }]) {
        const cases = bodies('demo/off', extra)
        const alone = bodies('demo/alone', {})
        for (let i = 0; i < cases.length; i++) {
          const [path, body] = cases[i]!
          const [status, answer] = await call(k.key, path, body)
          const [aloneStatus, aloneAnswer] = await call(k.key, path, alone[i]![1])
          expect([503, 529]).toContain(status)
          expect([path, status]).toEqual([path, aloneStatus])
          expect(JSON.stringify(answer).replaceAll('demo/off', 'demo/alone')).toBe(JSON.stringify(aloneAnswer))
        }
      }
      expect(await reservedOf(gw, k.userId)).toBe(0n)
      // A key that may use the fallback is served by it.
      const open = await gw.user(5, { models: ['demo/*', 'beta/*'] })
      expect((await call(open.key, '/v1/chat/completions', bodies('demo/off', {})[0]![1]))[0]).toBe(200)
    })
  })
}
