// The in-process catalog snapshot (catalog/catalog.ts): after a refresh it holds every model with
// its servable routes only (enabled gateway, a protocol this build speaks, embeddings through
// openai-chat only, not switched off), in catalog order; route options; `env:` references
// resolved, unset ones dropped and reported; lookup says unknown vs unavailable; list is sorted.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Catalog, serves } from '../../src/catalog/catalog.ts'
import { type CatalogFile, parseCatalogFile, upsertCatalog } from '../../src/catalog/file.ts'
import { routeSwitches } from '../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

const gw = (id: string, protocol: CatalogFile['gateways'][number]['protocol'], extra: Partial<CatalogFile['gateways'][number]> = {}) => ({
  id,
  protocol,
  baseUrl: `http://127.0.0.1:9/${id}`,
  apiKey: `env:KEY_${id.toUpperCase().replace('-', '_')}`,
  ...extra,
})
const model = (id: string, routes: CatalogFile['models'][number]['routes'], extra: Partial<CatalogFile['models'][number]> = {}) => ({
  id,
  name: id,
  provider: 'acme',
  contextWindow: 1000,
  capabilities: ['text'],
  pricing: { input: 1, output: 2 },
  routes,
  ...extra,
})

const FILE = {
  gateways: [
    gw('gw-chat', 'openai-chat', { headers: { 'x-org': 'env:ORG', 'x-fixed': 'plain', 'x-missing': 'env:NOT_SET' } }),
    gw('gw-msg', 'anthropic-messages'),
    gw('gw-off', 'openai-chat', { enabled: false, apiKey: 'env:NOT_SET_EITHER' }),
    gw('gw-resp', 'openai-responses'),
  ],
  models: [
    model('acme/b-chat', [
      { gateway: 'gw-msg', model: 'up-m' },
      { gateway: 'gw-off', model: 'up-off' },
      { gateway: 'gw-chat', model: 'up-c', priority: 7, weight: 3, rpm: 10, tpm: 500 },
      { gateway: 'gw-resp', model: 'up-r' },
    ]),
    model(
      'acme/a-embed',
      [
        { gateway: 'gw-off', model: 'e-off' },
        { gateway: 'gw-chat', model: 'e-c' },
      ],
      {
        kind: 'embedding',
        capabilities: ['text'],
        pricing: { input: 0.1 },
      },
    ),
    model('acme/c-old', [{ gateway: 'gw-chat', model: 'o' }], { deprecated: true }),
    model('acme/d-unpriced', [{ gateway: 'gw-chat', model: 'u' }], { pricing: { input: null, output: null } }),
    model('acme/e-offonly', [{ gateway: 'gw-off', model: 'x' }]),
  ],
}

const env: Record<string, string> = { KEY_GW_CHAT: 'sk-chat', KEY_GW_MSG: 'sk-msg', ORG: 'org-1' }
const resolve = (ref: string | undefined) => (ref?.startsWith('env:') ? env[ref.slice(4)] : ref)

describe('Catalog on embedded Postgres', () => {
  let m: MemoryDb
  let catalog: Catalog
  beforeAll(async () => {
    m = await memoryDb()
    await upsertCatalog(m.db, parseCatalogFile(FILE))
    // This build speaks two of the three protocols.
    catalog = new Catalog(m.db, resolve, new Set(['openai-chat', 'anthropic-messages']))
    await catalog.refresh()
  }, 30_000)
  afterAll(() => m.close())

  test('routes: only servable ones, in catalog order, with their options; priority defaults to the position', () => {
    const routes = catalog.all().find((x) => x.id === 'acme/b-chat')!.routes
    expect(routes.map((r) => [r.gateway.id, r.upstreamModel, r.priority, r.weight, r.rpm, r.tpm])).toEqual([
      ['gw-msg', 'up-m', 0, 1, undefined, undefined],
      ['gw-chat', 'up-c', 7, 3, 10, 500],
    ])
  })

  test('gateways: keys and headers resolved; an unset variable drops the header; unresolved enabled keys are reported', () => {
    const routes = catalog.all().find((x) => x.id === 'acme/b-chat')!.routes
    const chat = routes.find((r) => r.gateway.id === 'gw-chat')!.gateway
    expect(chat.apiKey).toBe('sk-chat')
    expect(chat.headers).toEqual({ 'x-org': 'org-1', 'x-fixed': 'plain' })
    // gw-resp's key is unset and reported; gw-off's is not (disabled); a dropped header is reported too.
    expect([...catalog.unresolvedSecrets()].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'gw-chat', ref: 'env:NOT_SET' },
      { id: 'gw-resp', ref: 'env:KEY_GW_RESP' },
    ])
  })

  test('embeddings: served by openai-chat gateways only, listed with the embeddings capability', () => {
    const embed = catalog.all().find((x) => x.id === 'acme/a-embed')!
    expect(embed.routes.map((r) => r.gateway.id)).toEqual(['gw-chat'])
    expect(embed.capabilities).toEqual(['embeddings'])
    expect([serves('embedding', 'openai-chat'), serves('embedding', 'anthropic-messages'), serves('chat', 'openai-responses')]).toEqual([
      true,
      false,
      true,
    ])
  })

  test('lookup: unknown, unavailable (deprecated, unpriced, no servable route) with the model, or ok', () => {
    expect(catalog.lookup('acme/none')).toEqual({ ok: false, reason: 'unknown' })
    for (const id of ['acme/c-old', 'acme/d-unpriced', 'acme/e-offonly']) {
      const l = catalog.lookup(id)
      expect(l.ok).toBe(false)
      expect(l.ok === false && l.reason === 'unavailable' && l.model.id).toBe(id)
    }
    expect(catalog.lookup('acme/b-chat').ok).toBe(true)
    expect(catalog.lookup('acme/a-embed').ok).toBe(true)
  })

  test('list: available models sorted by id; all: every model', () => {
    expect(catalog.list().map((x) => x.id)).toEqual(['acme/a-embed', 'acme/b-chat'])
    expect(catalog.all()).toHaveLength(5)
  })

  test('a switched-off route leaves the snapshot at the next refresh', async () => {
    await m.db.insert(routeSwitches).values({ modelId: 'acme/b-chat', gatewayId: 'gw-msg', upstreamModel: 'up-m', disabledBy: 'test' })
    await catalog.refresh()
    expect(
      catalog
        .all()
        .find((x) => x.id === 'acme/b-chat')!
        .routes.map((r) => r.gateway.id),
    ).toEqual(['gw-chat'])
    await m.db.delete(routeSwitches)
    await catalog.refresh()
    expect(catalog.all().find((x) => x.id === 'acme/b-chat')!.routes).toHaveLength(2)
  })
})
