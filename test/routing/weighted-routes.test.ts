// docs/failover.md "Priorities and weights" and "Upstream limits", through HTTP on three
// instances sharing Postgres and Redis: one priority's routes share calls by weight, the next
// priority only takes what the first cannot, and a route's rpm holds across the instances with
// the calls past it served by the next route (skipped, not failed). Gateway headers and query
// reach the upstream.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { bearer, startTestGateway, type GatewayInstance, type TestGateway } from '../helpers/gateway.ts'
import { describeServices } from '../helpers/services.ts'

const ANSWER = { kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') } as const

describeServices('weighted routes and route limits across three instances', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let instances: GatewayInstance[]
  let key: string
  beforeAll(async () => {
    up = startFakeUpstream(ANSWER)
    const gateway = (id: string) => ({
      id,
      protocol: 'openai-chat' as const,
      baseUrl: `${up.url}/${id}/v1`,
      apiKey: 'sk-up',
      timeoutMs: 2_000,
    })
    const model = (id: string, routes: CatalogFile['models'][number]['routes']) => ({
      id,
      name: id,
      provider: 'acme',
      contextWindow: 128_000,
      capabilities: ['text'],
      pricing: { input: 0.15, output: 0.6 },
      routes,
    })
    const catalog: CatalogFile = {
      gateways: [
        gateway('a'),
        gateway('b'),
        gateway('c'),
        {
          ...gateway('azure'),
          apiKey: undefined,
          headers: { 'api-key': 'env:AZURE_TEST_KEY', 'X-Title': 'Tollgate' },
          query: { 'api-version': '2025-04-01-preview' },
        },
      ],
      models: [
        model('acme/weighted', [
          { gateway: 'a', model: 'm', priority: 0, weight: 3 },
          { gateway: 'b', model: 'm', priority: 0, weight: 1 },
          { gateway: 'c', model: 'm', priority: 1 },
        ]),
        model('acme/limited', [
          { gateway: 'a', model: 'lim', rpm: 7 },
          { gateway: 'b', model: 'lim' },
        ]),
        model('acme/azure', [{ gateway: 'azure', model: 'deployment-1' }]),
      ],
    }
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, catalog, { AZURE_TEST_KEY: 'az-secret' })
    instances = [gw, await gw.peer(), await gw.peer()]
    for (const i of instances.slice(1)) await i.runtime.deps.catalog.refresh()
    key = (await gw.user(10, { rpm: 10_000 })).key
  }, 60_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  }, 60_000)

  const call = (i: number, model: string) =>
    instances[i % 3]!.request('/v1/chat/completions', {
      method: 'POST',
      headers: bearer(key),
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    })
  const servedBy = (from: number) => up.seen.slice(from).map((s) => s.path.split('/')[1])

  test('weights 3:1 share the calls exactly on every instance; the second priority is not asked while the first answers', async () => {
    const from = up.seen.length
    for (let i = 0; i < 120; i++) expect((await call(i, 'acme/weighted')).status).toBe(200)
    const seen = servedBy(from)
    expect(seen.filter((g) => g === 'a')).toHaveLength(90)
    expect(seen.filter((g) => g === 'b')).toHaveLength(30)
    expect(seen.filter((g) => g === 'c')).toHaveLength(0)
  }, 60_000)

  test('a failing route of the first priority moves to its sibling, then the next priority', async () => {
    up.script({ kind: 'status', status: 500 }, { kind: 'status', status: 500 })
    const from = up.seen.length
    const res = await call(0, 'acme/weighted')
    expect(res.status).toBe(200)
    expect(servedBy(from)).toHaveLength(3)
    expect(servedBy(from)[2]).toBe('c')
  })

  test('rpm 7 on a route holds across the instances: 7 calls reach it, the rest are served by the next route', async () => {
    const from = up.seen.length
    const answers = await Promise.all(Array.from({ length: 18 }, (_, i) => call(i, 'acme/limited')))
    expect(answers.map((r) => r.status)).toEqual(Array(18).fill(200))
    const seen = servedBy(from)
    expect(seen.filter((g) => g === 'a')).toHaveLength(7)
    expect(seen.filter((g) => g === 'b')).toHaveLength(11)
    expect(gw.runtime.deps.router.breakers.phase('gw:a|model:lim')).toBe('closed')
    const skips = instances.reduce((n, i) => n + i.runtime.deps.router.counters.limitSkips, 0)
    expect(skips).toBe(11)
  }, 60_000)

  test("a gateway's headers and query are sent, env: references resolved, and no Authorization without an apiKey", async () => {
    let url = ''
    up.script({ kind: 'fn', handle: (req) => ((url = req.url), Response.json(ANSWER.body)) })
    const from = up.seen.length
    expect((await call(1, 'acme/azure')).status).toBe(200)
    expect(new URL(url).search).toBe('?api-version=2025-04-01-preview')
    const seen = up.seen[from]!
    expect(seen.headers['api-key']).toBe('az-secret')
    expect(seen.headers['x-title']).toBe('Tollgate')
    expect(seen.headers.authorization).toBeUndefined()
    expect(seen.path).toBe('/azure/v1/chat/completions')
    expect(seen.body.model).toBe('deployment-1')
  })
})
