// GET /v1/models in both shapes, and which catalog models can be called: only available ones
// (not deprecated, priced, with an enabled gateway) are listed; the others answer 503
// MODEL_UNAVAILABLE on chat, as an unknown slug does.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { parseCatalogFile, upsertCatalog } from '../../src/catalog/file.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectChatError, postChat, reservedOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

for (const backends of ALL_BACKENDS) {
  describe(`models on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let off: FakeUpstream
    let gw: TestGateway
    let catalog: CatalogFile
    const startedAt = Math.floor(Date.now() / 1000)
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      off = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      catalog.gateways.push({ id: 'gw-off', protocol: 'openai-chat', baseUrl: `${off.url}/v1`, enabled: false })
      const base = catalog.models[0]!
      catalog.models.push(
        {
          ...base,
          id: 'acme/vision',
          name: 'Vision',
          provider: 'vendor-x',
          contextWindow: 200_000,
          capabilities: ['text', 'vision', 'streaming'],
          pricing: { input: 3, output: 15 },
          routes: [
            { gateway: 'gw-off', model: 'v-off' },
            { gateway: 'gw-a', model: 'v-a' },
          ],
        },
        { ...base, id: 'acme/old', deprecated: true },
        { ...base, id: 'acme/unpriced', pricing: { input: null, output: null } },
        { ...base, id: 'acme/off-only', routes: [{ gateway: 'gw-off', model: 'x' }] },
      )
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
      off.stop()
    })

    const list = async (key: string, query = '') => {
      const res = await gw.request(`/v1/models${query}`, { headers: { authorization: `Bearer ${key}` } })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(res.headers.get('x-request-id')).toMatch(/^req_/)
      return (await res.json()) as any
    }

    test('shape A (what models.list reads): available, non-deprecated models with per-token USD prices', async () => {
      const u = await gw.user(1)
      const a = await list(u.key)
      expect(Object.keys(a).sort()).toEqual(['data', 'object'])
      expect(a.object).toBe('list')
      expect(a.data.map((m: any) => m.id)).toEqual(['acme/chat-1', 'acme/vision'])
      const [chat, vision] = a.data
      expect(chat).toEqual({
        id: 'acme/chat-1',
        object: 'model',
        created: chat.created,
        owned_by: 'acme',
        context_window: 128_000,
        capabilities: ['text', 'streaming', 'tool-calling'],
        pricing: { input: 1.5e-7, output: 6e-7, currency: 'USD' }, // 0.15 and 0.6 USD per 1M tokens
      })
      expect(Number.isInteger(chat.created)).toBe(true)
      expect(chat.created).toBeGreaterThanOrEqual(startedAt - 60)
      expect(chat.created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000))
      expect(vision).toMatchObject({
        owned_by: 'vendor-x',
        context_window: 200_000,
        capabilities: ['text', 'vision', 'streaming'],
        pricing: { input: 3e-6, output: 1.5e-5, currency: 'USD' },
      })
      // x-api-key works as well.
      const viaHeader = await gw.request('/v1/models', { headers: { 'x-api-key': u.key } })
      expect(((await viaHeader.json()) as any).data).toEqual(a.data)
    })

    test('?shape=b: credits per 1M tokens, service_mode at the top level and per model', async () => {
      const u = await gw.user(1)
      const b = await list(u.key, '?shape=b')
      expect(b.object).toBe('list')
      expect(b.service_mode).toBe('performance')
      expect(b.data.map((m: any) => m.id)).toEqual(['acme/chat-1', 'acme/vision'])
      const [chat, vision] = b.data
      expect(chat).toEqual({
        id: 'acme/chat-1',
        object: 'model',
        created: chat.created,
        owned_by: 'acme',
        context_window: 128_000,
        capabilities: ['chat', 'tools'],
        service_mode: 'performance',
        // 1000 credits per USD (CREDITS_PER_USD default): 0.15 USD/1M → 150 credits/1M.
        pricing: { input: 150, output: 600, cache_read: 75, cache_write: 187.5, unit: '1M_tokens', currency: 'credits' },
      })
      // No cache prices: cached tokens pay the input price.
      expect(vision).toMatchObject({
        capabilities: ['chat', 'vision'],
        service_mode: 'performance',
        pricing: { input: 3000, output: 15_000, cache_read: 3000, cache_write: 3000, unit: '1M_tokens' },
      })
      expect((await list(u.key, '?shape=B')).service_mode).toBe('performance')
    })

    test('shape B shows the service mode of the key in use; the admin API makes keys of known modes only', async () => {
      const u = await gw.user(1)
      const create = (serviceMode: string) =>
        gw.request('/api/admin/keys', {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ userId: u.userId, serviceMode }),
        })
      // A mode the gateway does not serve is refused as the console refuses it (docs/api.md "Key settings").
      const refused = await create('economy')
      expect(refused.status).toBe(422)
      const res = await create('performance')
      expect(res.status).toBe(200)
      const { key } = (await res.json()) as { key: string }
      const b = await list(key, '?shape=b')
      expect(b.service_mode).toBe('performance')
      expect(b.data.every((m: any) => m.service_mode === 'performance')).toBe(true)
    })

    test('401 UNAUTHORIZED without a valid key, in the chat envelope', async () => {
      for (const headers of [
        {},
        { authorization: 'Bearer sk-nope000000000000000000000000000000000000' },
        { 'x-api-key': 'nope' },
      ] as Record<string, string>[]) {
        const res = await gw.request('/v1/models', { headers })
        const error = await expectChatError(res, 401, 'UNAUTHORIZED')
        expect(error.message).toBe('Invalid, revoked or expired API key.')
      }
      await expectChatError(await gw.request('/v1/models?shape=b'), 401, 'UNAUTHORIZED')
    })

    test('503 MODEL_UNAVAILABLE for an unknown, deprecated, unpriced or gateway-less model; no upstream call, nothing reserved', async () => {
      const u = await gw.user(1)
      const seen = up.seen.length
      for (const model of ['acme/nope', 'acme/old', 'acme/unpriced', 'acme/off-only']) {
        for (const stream of [false, true]) {
          const error = await expectChatError(await postChat(gw, u.key, { model, stream }), 503, 'MODEL_UNAVAILABLE')
          expect(error.message).toContain(model)
        }
      }
      expect(up.seen.length).toBe(seen)
      expect(off.seen).toHaveLength(0)
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      await gw.settled()
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
    })

    test('a disabled gateway is skipped: the model is served by its next route', async () => {
      const u = await gw.user(1)
      const res = await postChat(gw, u.key, { model: 'acme/vision' })
      expect(res.status).toBe(200)
      const body = (await res.json()) as any
      expect(body.model).toBe('acme/vision')
      expect(body.svc.gateway).toBe('gw-a')
      expect(up.seen.at(-1)!.body.model).toBe('v-a')
      expect(off.seen).toHaveLength(0)
    })

    test('deprecating a model in the catalog hides it from the list and makes calls to it unavailable', async () => {
      const u = await gw.user(1)
      const changed = { ...catalog, models: catalog.models.map((m) => (m.id === 'acme/vision' ? { ...m, deprecated: true } : m)) }
      await upsertCatalog(gw.runtime.deps.db, parseCatalogFile(changed))
      await gw.runtime.deps.catalog.refresh()
      try {
        expect((await list(u.key)).data.map((m: any) => m.id)).toEqual(['acme/chat-1'])
        expect((await list(u.key, '?shape=b')).data.map((m: any) => m.id)).toEqual(['acme/chat-1'])
        await expectChatError(await postChat(gw, u.key, { model: 'acme/vision' }), 503, 'MODEL_UNAVAILABLE')
      } finally {
        await upsertCatalog(gw.runtime.deps.db, parseCatalogFile(catalog))
        await gw.runtime.deps.catalog.refresh()
      }
      expect((await list(u.key)).data.map((m: any) => m.id)).toEqual(['acme/chat-1', 'acme/vision'])
    })
  })
}
