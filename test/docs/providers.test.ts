// docs/providers.md, as behaviour: the worked catalog's gateways are called at baseUrl + the
// protocol's endpoint (so baseUrl carries /v1, or /api/v1 for OpenRouter), with the key its
// env: reference names, read from the instance's environment and sent the protocol's way; a
// baseUrl without the version segment gets the upstream's 404 and the client a 502. The same for
// the block of more OpenAI-compatible providers (Groq, DeepSeek, Gemini, Mistral, Together).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { parseCatalogFile, readCatalogFile } from '../../src/catalog/file.ts'
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { blocks, ROOT } from './blocks.ts'

const ENDPOINT = { 'openai-chat': '/chat/completions', 'anthropic-messages': '/messages', 'openai-responses': '/responses' } as const
const ANSWER = {
  'openai-chat': ['openai-chat', 'json-text.json'],
  'anthropic-messages': ['anthropic-messages', 'json-text.json'],
  'openai-responses': ['openai-responses', 'json-text.json'],
} as const
const KEYS = {
  OPENAI_API_KEY: 'sk-openai-test-value',
  ANTHROPIC_API_KEY: 'sk-ant-test-value',
  OPENROUTER_API_KEY: 'sk-or-test-value',
  GROQ_API_KEY: 'gsk-test-value',
  DEEPSEEK_API_KEY: 'sk-deepseek-test-value',
  GEMINI_API_KEY: 'gemini-test-value',
  MISTRAL_API_KEY: 'mistral-test-value',
  TOGETHER_API_KEY: 'together-test-value',
}

/** The catalog of "More OpenAI-compatible providers": the page's second JSON block. */
const moreProviders = () => parseCatalogFile(JSON.parse(blocks('docs/providers.md').filter((b) => b.lang === 'json')[1]!.text))

describe('the worked catalog of docs/providers.md', () => {
  let doc: CatalogFile
  let up: FakeUpstream
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    doc = await readCatalogFile(`${ROOT}deploy/catalog.json`)
    up = startFakeUpstream()
    // Same paths, this machine's fake upstream as the host.
    const local: CatalogFile = {
      models: [...doc.models],
      gateways: doc.gateways.map((g) => ({ ...g, baseUrl: `${up.url}${new URL(g.baseUrl).pathname}` })),
    }
    local.gateways.push({ id: 'no-version', protocol: 'openai-chat', baseUrl: up.url, apiKey: 'env:OPENAI_API_KEY' })
    local.models.push({ ...local.models[0]!, id: 'test/no-version', routes: [{ gateway: 'no-version', model: 'm' }] })
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, local, KEYS)
    key = (await gw.user(5, { rpm: 1_000 })).key
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  }, 60_000)

  const call = (model: string) =>
    gw.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    })

  test('each model reaches its first route at baseUrl + endpoint, with the referenced key', async () => {
    for (const m of doc.models) {
      const g = doc.gateways.find((x) => x.id === m.routes[0]!.gateway)!
      const [proto, file] = ANSWER[g.protocol]
      up.script({ kind: 'json', body: fixtureJson(proto, file) })
      const before = up.seen.length
      const res = await call(m.id)
      expect(res.status).toBe(200)
      const seen = up.seen[before]!
      expect(seen.path).toBe(`${new URL(g.baseUrl).pathname}${ENDPOINT[g.protocol]}`)
      const secret = KEYS[g.apiKey!.slice(4) as keyof typeof KEYS]
      if (g.protocol === 'anthropic-messages') expect(seen.headers['x-api-key']).toBe(secret)
      else expect(seen.headers.authorization).toBe(`Bearer ${secret}`)
      expect(seen.body.model).toBe(m.routes[0]!.model)
    }
  }, 60_000)

  test('a baseUrl without /v1 reaches …/chat/completions, gets 404 there, and the client a 502', async () => {
    up.script({ kind: 'status', status: 404 })
    const before = up.seen.length
    const res = await call('test/no-version')
    expect(res.status).toBe(502)
    expect(up.seen[before]!.path).toBe('/chat/completions')
  })
})

describe('docs/providers.md "More OpenAI-compatible providers"', () => {
  const doc = moreProviders()
  let up: FakeUpstream
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
    const local: CatalogFile = {
      models: doc.models,
      gateways: doc.gateways.map((g) => ({ ...g, baseUrl: `${up.url}${new URL(g.baseUrl).pathname}` })),
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, local, KEYS)
    key = (await gw.user(5, { rpm: 1_000 })).key
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  }, 60_000)

  test('names the five providers by their documented base URLs', () => {
    expect(Object.fromEntries(doc.gateways.map((g) => [g.id, g.baseUrl]))).toEqual({
      groq: 'https://api.groq.com/openai/v1',
      deepseek: 'https://api.deepseek.com/v1',
      gemini: 'https://generativelanguage.googleapis.com/v1beta/openai',
      mistral: 'https://api.mistral.ai/v1',
      together: 'https://api.together.xyz/v1',
    })
    expect(new Set(doc.gateways.map((g) => g.protocol))).toEqual(new Set(['openai-chat']))
  })

  test('every route of every model reaches baseUrl + /chat/completions with its Bearer key and upstream model', async () => {
    const routed = new Set<string>()
    for (const m of doc.models)
      for (const [i, route] of m.routes.entries()) {
        const g = doc.gateways.find((x) => x.id === route.gateway)!
        // Earlier routes answer 503, so the call fails over to this one.
        for (let j = 0; j < i; j++) up.script({ kind: 'status', status: 503 })
        const before = up.seen.length
        const res = await gw.request('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: m.id, messages: [{ role: 'user', content: 'hi' }] }),
        })
        expect(res.status).toBe(200)
        const seen = up.seen.at(-1)!
        expect(up.seen.length - before).toBe(i + 1)
        expect(seen.path).toBe(`${new URL(g.baseUrl).pathname}/chat/completions`)
        expect(seen.headers.authorization).toBe(`Bearer ${KEYS[g.apiKey!.slice(4) as keyof typeof KEYS]}`)
        expect(seen.body.model).toBe(route.model)
        routed.add(g.id)
      }
    expect([...routed].sort()).toEqual(['deepseek', 'gemini', 'groq', 'mistral', 'together'])
  }, 60_000)
})
