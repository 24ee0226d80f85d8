// CATALOG_FILE is strict (docs/api.md "Catalog file"): a misspelt member is refused with one line
// naming it and the member meant, at start and on reload, and a refused reload changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rm } from 'node:fs/promises'
import { eq } from 'drizzle-orm'
import { CatalogFileError, parseCatalogFile } from '../../src/catalog/file.ts'
import { gateways, models } from '../../src/db/schema/index.ts'
import { startupFailure } from '../../src/lib/startup-error.ts'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

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

  test('a wrong protocol names the protocols there are', () => {
    const c = base()
    expect(refusal({ ...c, gateways: [{ ...c.gateways[0]!, protocol: 'openai' }] })).toBe(
      'catalog: gateways[0].protocol: must be one of openai-chat, anthropic-messages, openai-responses',
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

    test('a file with a misspelt member answers 400 naming it; the stored catalog is as it was', async () => {
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
        `CATALOG_FILE ${path} is invalid: gateways[0].apikey: unknown field; did you mean apiKey? (docs/providers.md)`,
      )
      const { db } = gw.runtime.deps
      const [gateway] = await db.select().from(gateways).where(eq(gateways.id, 'gw-a'))
      expect(gateway!.apiKeyRef).toBe('sk-upstream-secret')
      const [model] = await db.select().from(models).where(eq(models.id, 'acme/chat-1'))
      expect(model!.deprecated).toBe(false)
    })
  })
})
