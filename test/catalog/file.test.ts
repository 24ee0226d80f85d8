// CATALOG_FILE is strict (docs/api.md "Catalog file"): a misspelt member is refused with one line
// naming it and the member meant, at start and on reload, and a refused reload changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rm } from 'node:fs/promises'
import { eq } from 'drizzle-orm'
import { CatalogFileError, parseCatalogFile, upsertCatalog } from '../../src/catalog/file.ts'
import { gateways, modelRoutes, models } from '../../src/db/schema/index.ts'
import { startupFailure } from '../../src/lib/startup-error.ts'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { memoryDb } from '../helpers/memory-db.ts'

const base = () => simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])

function refusal(file: unknown): string {
  try {
    parseCatalogFile(file)
  } catch (e) {
    if (e instanceof CatalogFileError) return e.message
    throw e
  }
  throw new Error('expected the catalog to be refused')
}

describe('catalog file', () => {
  test('a misspelt gateway or model member is refused, naming it and the member meant', () => {
    const withGateway = (extra: Record<string, unknown>) => {
      const c = base()
      return { ...c, gateways: [{ ...c.gateways[0]!, ...extra }] }
    }
    const withModel = (extra: Record<string, unknown>) => {
      const c = base()
      return { ...c, models: [{ ...c.models[0]!, ...extra }] }
    }
    expect(refusal(withGateway({ apikey: 'env:KEY' }))).toBe('catalog: gateways[0].apikey: unknown field; did you mean apiKey?')
    expect(refusal(withGateway({ timeoutMS: 5_000 }))).toBe('catalog: gateways[0].timeoutMS: unknown field; did you mean timeoutMs?')
    expect(refusal(withGateway({ enable: false }))).toBe('catalog: gateways[0].enable: unknown field; did you mean enabled?')
    expect(refusal(withModel({ deprecate: true }))).toBe('catalog: models[0].deprecate: unknown field; did you mean deprecated?')
    const c = base()
    const pricing = { ...c.models[0]!.pricing, cache_read: 0.01 }
    expect(refusal({ ...c, models: [{ ...c.models[0]!, pricing }] })).toBe(
      'catalog: models[0].pricing.cache_read: unknown field; did you mean cacheRead?',
    )
    expect(refusal({ ...c, version: 2 })).toBe('catalog: version: unknown field')
  })

  test('a misspelt required member names the near miss; two wrong fields are both named', () => {
    const c = base()
    const { pricing, ...rest } = c.models[0]!
    expect(refusal({ ...c, models: [{ ...rest, pricng: pricing }] })).toBe(
      'catalog: models[0].pricing: Expected required property; found pricng: did you mean pricing?',
    )
    expect(refusal({ ...c, models: [{ ...c.models[0]!, deprecate: true, contextWindow: 0 }] })).toBe(
      'catalog: models[0].deprecate: unknown field; did you mean deprecated?; models[0].contextWindow: Expected integer to be greater or equal to 1',
    )
  })

  test('a fallback naming no model of the file is refused, naming the model meant when close', () => {
    const c = base()
    const second = { ...c.models[0]!, id: 'acme/chat-2', fallbacks: undefined }
    expect(refusal({ ...c, models: [{ ...c.models[0]!, fallbacks: ['acme/chat-22'] }, second] })).toBe(
      'catalog: models[0].fallbacks[0]: acme/chat-22 is no model of this file; did you mean acme/chat-2?',
    )
    expect(refusal({ ...c, models: [{ ...c.models[0]!, fallbacks: ['acme/chat-2', 'other/x'] }, second] })).toBe(
      'catalog: models[0].fallbacks[1]: other/x is no model of this file',
    )
    expect(parseCatalogFile({ ...c, models: [{ ...c.models[0]!, fallbacks: ['acme/chat-2'] }, second] }).models).toHaveLength(2)
  })

  test('a wrong protocol names the protocols there are', () => {
    const c = base()
    expect(refusal({ ...c, gateways: [{ ...c.gateways[0]!, protocol: 'openai' }] })).toBe(
      'catalog: gateways[0].protocol: must be one of openai-chat, anthropic-messages, openai-responses, bedrock-anthropic, bedrock-converse, vertex-anthropic',
    )
  })

  test('kind: an embedding model has an input price only and openai-chat routes; a chat model keeps its output price', () => {
    const c = base()
    const embedding = { ...c.models[0]!, id: 'acme/embed', kind: 'embedding' as const, pricing: { input: 0.02 } }
    expect(parseCatalogFile({ ...c, models: [embedding] }).models[0]!.kind).toBe('embedding')
    expect(parseCatalogFile({ ...c, models: [{ ...embedding, pricing: { input: 0.02, output: null } }] }).models).toHaveLength(1)
    expect(refusal({ ...c, models: [{ ...embedding, pricing: { input: 0.02, output: 0.1 } }] })).toBe(
      'catalog: embedding model acme/embed: pricing.output must be absent or null (embeddings are billed per input token)',
    )
    const anthropic = { ...c.gateways[0]!, id: 'gw-b', protocol: 'anthropic-messages' as const }
    expect(refusal({ gateways: [anthropic], models: [{ ...embedding, routes: [{ gateway: 'gw-b', model: 'm' }] }] })).toBe(
      'catalog: embedding model acme/embed routes to gateway gw-b (anthropic-messages); embeddings need an openai-chat gateway',
    )
    expect(refusal({ ...c, models: [{ ...embedding, kind: 'rerank' }] })).toBe('catalog: models[0].kind: must be one of chat, embedding')
    expect(refusal({ ...c, models: [{ ...c.models[0]!, pricing: { input: 1 } }] })).toStartWith(
      'catalog: models[0].pricing.output: Expected required property',
    )
  })

  test('at start the refusal is one line naming the file and the field', () => {
    const c = base()
    let thrown: unknown
    try {
      parseCatalogFile({ ...c, gateways: [{ ...c.gateways[0]!, apikey: 'env:KEY' }] })
    } catch (e) {
      thrown = e
    }
    expect(startupFailure('catalog', thrown, { file: '/etc/catalog.json' }).message).toBe(
      'CATALOG_FILE /etc/catalog.json is invalid: gateways[0].apikey: unknown field; did you mean apiKey? (docs/providers.md)',
    )
  })

  describe('reload', () => {
    let gw: TestGateway
    const path = `/tmp/tollgate-strict-catalog-${process.pid}.json`
    beforeAll(async () => {
      await Bun.write(path, JSON.stringify(base()))
      gw = await startTestGateway({ db: 'pglite', store: 'memory' }, base(), { CATALOG_FILE: path })
    })
    afterAll(async () => {
      await gw.stop()
      await rm(path, { force: true })
    })

    test('a file with misspelt members answers 400 naming each; the stored catalog is as it was', async () => {
      const c = base()
      const next = {
        ...c,
        gateways: [{ ...c.gateways[0]!, apiKey: undefined, apikey: 'env:OTHER' }],
        models: [{ ...c.models[0]!, deprecate: true }],
      }
      await Bun.write(path, JSON.stringify(next))
      const res = await gw.request('/api/admin/catalog/reload', { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(res.status).toBe(400)
      const body = (await res.json()) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('BAD_REQUEST')
      expect(body.error.message).toBe(
        `CATALOG_FILE ${path} is invalid: gateways[0].apikey: unknown field; did you mean apiKey?; models[0].deprecate: unknown field; did you mean deprecated? (docs/providers.md)`,
      )
      const { db } = gw.runtime.deps
      const [gateway] = await db.select().from(gateways).where(eq(gateways.id, 'gw-a'))
      expect(gateway!.apiKeyRef).toBe('sk-upstream-secret')
      const [model] = await db.select().from(models).where(eq(models.id, 'acme/chat-1'))
      expect(model!.deprecated).toBe(false)
    })

    test('a fallback naming no model answers 400 naming it; the stored fallbacks are as they were', async () => {
      const c = base()
      await Bun.write(path, JSON.stringify({ ...c, models: [{ ...c.models[0]!, fallbacks: ['acme/nothing'] }] }))
      const res = await gw.request('/api/admin/catalog/reload', { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(res.status).toBe(400)
      const body = (await res.json()) as { error: { code: string; message: string } }
      expect(body.error.message).toBe(
        `CATALOG_FILE ${path} is invalid: models[0].fallbacks[0]: acme/nothing is no model of this file (docs/providers.md)`,
      )
      const [model] = await gw.runtime.deps.db.select().from(models).where(eq(models.id, 'acme/chat-1'))
      expect(model!.fallbacks).toBeNull()
    })
  })
})

describe('routing fields (docs/failover.md, docs/providers.md "Headers and query")', () => {
  let gw: TestGateway | undefined
  afterAll(async () => gw?.stop())

  test('route, gateway and model routing members are strict too', () => {
    const c = base()
    const route = { ...c.models[0]!.routes[0]!, wieght: 2 }
    expect(refusal({ ...c, models: [{ ...c.models[0]!, routes: [route] }] })).toBe(
      'catalog: models[0].routes[0].wieght: unknown field; did you mean weight?',
    )
    const zero = { ...c.models[0]!.routes[0]!, weight: 0 }
    expect(refusal({ ...c, models: [{ ...c.models[0]!, routes: [zero] }] })).toStartWith('catalog: models[0].routes[0].weight:')
    expect(refusal({ ...c, gateways: [{ ...c.gateways[0]!, headers: { 'x-a': 1 } }] })).toStartWith('catalog: gateways[0].headers')
    expect(refusal({ ...c, models: [{ ...c.models[0]!, fallbacks: [c.models[0]!.id] }] })).toBe(
      'catalog: model acme/chat-1 lists itself in fallbacks',
    )
  })

  test('stored and loaded: priorities, weights, limits, fallbacks, headers and query with env: resolved; a catalog without them as before', async () => {
    const c = simpleCatalog([
      { id: 'gw-a', url: 'http://127.0.0.1:9' },
      { id: 'gw-b', url: 'http://127.0.0.1:9' },
    ])
    c.gateways[0] = { ...c.gateways[0]!, headers: { 'api-key': 'env:ROUTING_TEST_KEY', 'x-unset': 'env:ROUTING_UNSET' }, query: { v: '1' } }
    const plain = { ...c.models[0]!, id: 'acme/plain' }
    c.models[0] = {
      ...c.models[0]!,
      fallbacks: ['acme/plain'],
      routes: [
        { gateway: 'gw-a', model: 'm1', priority: 1, weight: 3, rpm: 60, tpm: 1_000, cost: { input: 0.1, output: 0.2 } },
        { gateway: 'gw-b', model: 'm2' },
      ],
    }
    c.models.push(plain)
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, c, { ROUTING_TEST_KEY: 'k-1' })
    const found = gw.runtime.deps.catalog.lookup('acme/chat-1')
    if (!found.ok) throw new Error('model not loaded')
    const [a, b] = found.model.routes
    expect({ priority: a!.priority, weight: a!.weight, rpm: a!.rpm, tpm: a!.tpm }).toEqual({ priority: 1, weight: 3, rpm: 60, tpm: 1_000 })
    expect(a!.gateway.headers).toEqual({ 'api-key': 'k-1' })
    expect(a!.gateway.query).toEqual({ v: '1' })
    // The unset header variable is left out, and warned about like an unset key.
    expect(gw.runtime.deps.catalog.unresolvedSecrets()).toContainEqual({ id: 'gw-a', ref: 'env:ROUTING_UNSET' })
    expect({ priority: b!.priority, weight: b!.weight, rpm: b!.rpm }).toEqual({ priority: 1, weight: 1, rpm: undefined })
    expect(found.model.fallbacks).toEqual(['acme/plain'])
    const old = gw.runtime.deps.catalog.lookup('acme/plain')
    if (!old.ok) throw new Error('model not loaded')
    expect(old.model.fallbacks).toEqual([])
    expect(old.model.routes.map((r) => [r.priority, r.weight])).toEqual([
      [0, 1],
      [1, 1],
    ])
  }, 30_000)
})

describe('upsert', () => {
  test("again: every gateway and model updated, each model's routes replaced, created_at kept, others left; an id named twice is its last entry", async () => {
    const m = await memoryDb()
    try {
      const first = simpleCatalog([
        { id: 'gw-a', url: 'http://127.0.0.1:9' },
        { id: 'gw-b', url: 'http://127.0.0.1:9' },
      ])
      first.models.push({ ...first.models[0]!, id: 'acme/kept', routes: [{ gateway: 'gw-b', model: 'k' }] })
      await upsertCatalog(m.db, parseCatalogFile(first))
      const [before] = await m.db.select({ createdAt: models.createdAt }).from(models).where(eq(models.id, 'acme/chat-1'))
      const next = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])
      next.gateways.push({ ...next.gateways[0]!, baseUrl: 'http://127.0.0.1:8/v2/', timeoutMs: 1_234 })
      next.models = [
        { ...next.models[0]!, name: 'first', routes: [{ gateway: 'gw-a', model: 'x' }] },
        { ...next.models[0]!, name: 'Renamed', pricing: { input: 3, output: 4 }, routes: [{ gateway: 'gw-a', model: 'y', weight: 2 }] },
      ]
      await upsertCatalog(m.db, parseCatalogFile(next))
      const gws = await m.db
        .select({ id: gateways.id, baseUrl: gateways.baseUrl, timeoutMs: gateways.timeoutMs })
        .from(gateways)
        .orderBy(gateways.id)
      expect(gws).toEqual([
        { id: 'gw-a', baseUrl: 'http://127.0.0.1:8/v2', timeoutMs: 1_234 },
        { id: 'gw-b', baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 2_000 },
      ])
      const rows = await m.db
        .select({ id: models.id, name: models.name, priceInput: models.priceInput, createdAt: models.createdAt })
        .from(models)
        .orderBy(models.id)
      expect(rows.map((r) => [r.id, r.name, r.priceInput])).toEqual([
        ['acme/chat-1', 'Renamed', 3_000_000_000n],
        ['acme/kept', 'Chat 1', 150_000_000n],
      ])
      expect(rows[0]!.createdAt).toEqual(before!.createdAt)
      const routes = await m.db
        .select({
          modelId: modelRoutes.modelId,
          position: modelRoutes.position,
          upstream: modelRoutes.upstreamModel,
          options: modelRoutes.options,
        })
        .from(modelRoutes)
        .orderBy(modelRoutes.modelId, modelRoutes.position)
      expect(routes).toEqual([
        { modelId: 'acme/chat-1', position: 0, upstream: 'y', options: { weight: 2 } },
        { modelId: 'acme/kept', position: 0, upstream: 'k', options: null },
      ])
    } finally {
      await m.close()
    }
  }, 30_000)
})
