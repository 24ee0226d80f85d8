// A key's allowlists on /v1 (docs/api.md "Key settings"): another model → 403 in each protocol's
// envelope with nothing reserved; /v1/models and /v1/models/{id} show only the allowed models;
// another client address (as TRUSTED_PROXIES resolves it, IPv4 and IPv6) → 403.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ALL_BACKENDS, bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
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
