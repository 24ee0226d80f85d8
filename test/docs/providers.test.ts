// docs/providers.md, as behaviour: the worked catalog's gateways are called at baseUrl + the
// protocol's endpoint (so baseUrl carries /v1, or /api/v1 for OpenRouter), with the key its
// env: reference names, read from the instance's environment and sent the protocol's way; a
// baseUrl without the version segment gets the upstream's 404 and the client a 502. Every recipe
// is called the same way, its headers and query included.
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
      const [proto, file] = ANSWER[g.protocol as keyof typeof ANSWER]
      up.script({ kind: 'json', body: fixtureJson(proto, file) })
      const before = up.seen.length
      const res = await call(m.id)
      expect(res.status).toBe(200)
      const seen = up.seen[before]!
      expect(seen.path).toBe(`${new URL(g.baseUrl).pathname}${ENDPOINT[g.protocol as keyof typeof ENDPOINT]}`)
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

test('the cloud entries of docs/providers.md "Cloud providers" pass the catalog parser', () => {
  const clouds = blocks('docs/providers.md').filter((b) => b.lang === 'json' && b.notRun)
  const protocols = clouds.flatMap((b) => parseCatalogFile(JSON.parse(b.text)).gateways.map((g) => `${g.protocol}:${g.auth?.type}`))
  expect(protocols).toEqual([
    'bedrock-anthropic:aws-sigv4',
    'bedrock-converse:aws-sigv4',
    'vertex-anthropic:google-service-account',
    'openai-chat:google-service-account',
    'openai-chat:azure-entra',
  ])
})

describe('the recipes of docs/providers.md "Recipes"', () => {
  const recipes = blocks('docs/providers.md')
    .filter((b) => b.lang === 'json' && b.text.includes('"gateways"') && !b.notRun)
    .slice(1)
    .map((b) => parseCatalogFile(JSON.parse(b.text)))
  const gateways = recipes.flatMap((c) => c.gateways)
  const routeOf = (id: string) => recipes.flatMap((c) => c.models.flatMap((m) => m.routes)).find((r) => r.gateway === id)!
  const envOf = (ref: string | undefined) => (ref?.startsWith('env:') ? `value-of-${ref.slice(4)}` : ref)
  let up: FakeUpstream
  let gw: TestGateway
  let key: string
  beforeAll(async () => {
    up = startFakeUpstream()
    const env: Record<string, string> = {}
    for (const g of gateways)
      for (const ref of [g.apiKey, ...Object.values(g.headers ?? {}), ...Object.values(g.query ?? {})])
        if (ref?.startsWith('env:')) env[ref.slice(4)] = envOf(ref)!
    const local: CatalogFile = {
      gateways: gateways.map((g) => ({ ...g, baseUrl: `${up.url}${new URL(g.baseUrl).pathname}` })),
      models: gateways.map((g) => ({
        ...recipes[0]!.models[0]!,
        id: `recipe/${g.id}`,
        routes: [{ gateway: g.id, model: routeOf(g.id).model }],
      })),
    }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, local, env)
    key = (await gw.user(5, { rpm: 1_000 })).key
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  }, 60_000)

  test('there is a recipe for each provider the page promises', () => {
    expect(gateways.map((g) => g.id)).toEqual([
      'openai',
      'azure',
      'anthropic',
      'gemini',
      'openrouter',
      'groq',
      'deepseek',
      'mistral',
      'together',
      'vllm',
      'ollama',
    ])
  })

  test('each gateway is called at its path with its key, headers and query, env: references resolved', async () => {
    for (const g of gateways) {
      const [proto, file] = ANSWER[g.protocol as keyof typeof ANSWER]
      let url = ''
      up.script({ kind: 'fn', handle: (req) => ((url = req.url), Response.json(fixtureJson(proto, file))) })
      const before = up.seen.length
      const res = await gw.request('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: `recipe/${g.id}`, messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(res.status).toBe(200)
      const seen = up.seen[before]!
      expect(seen.path).toBe(`${new URL(g.baseUrl).pathname}${ENDPOINT[g.protocol as keyof typeof ENDPOINT]}`)
      expect(new URL(url).search).toBe(g.query ? `?${new URLSearchParams(Object.entries(g.query).map(([k, v]) => [k, envOf(v)!]))}` : '')
      for (const [name, value] of Object.entries(g.headers ?? {})) expect(seen.headers[name.toLowerCase()]).toBe(envOf(value)!)
      const secret = envOf(g.apiKey)
      if (g.protocol === 'anthropic-messages') expect(seen.headers['x-api-key']).toBe(secret!)
      else if (secret) expect(seen.headers.authorization).toBe(`Bearer ${secret}`)
      else expect(seen.headers.authorization).toBeUndefined()
      expect(seen.body.model).toBe(routeOf(g.id).model)
    }
  }, 60_000)
})
