// docs/failover.md "Warm prompt caches", through HTTP on three instances sharing Redis: four
// equal routes would spread a repeated prefix over four cold caches; sticking to the route that
// served it keeps the cache-read share of the fake upstream (which reports a cache read when the
// same route saw the same prefix before) at 90 % or more, and a route that fails hands the
// prefix to another, which is then kept.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { cachePrefixKey } from '../../src/inference/cache-prefix.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { bearer, startTestGateway, type GatewayInstance, type TestGateway } from '../helpers/gateway.ts'
import { describeServices } from '../helpers/services.ts'

const ROUTES = ['r1', 'r2', 'r3', 'r4']

describeServices('sticky routes for warm prompt caches across three instances', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let instances: GatewayInstance[]
  let key: string
  let keyId: string
  /** Prefixes each route has cached; routes answering 500 for now. */
  const cached = new Map<string, Set<string>>(ROUTES.map((r) => [r, new Set()]))
  const down = new Set<string>()
  const served: string[] = []
  beforeAll(async () => {
    up = startFakeUpstream({
      kind: 'fn',
      handle: (req, body) => {
        const route = new URL(req.url).pathname.split('/')[1]!
        if (down.has(route)) return new Response('{"error":{"message":"down"}}', { status: 500 })
        served.push(route)
        const prefix = JSON.stringify(body.prompt_cache_key ?? body.messages[0])
        const hit = cached.get(route)!.has(prefix)
        cached.get(route)!.add(prefix)
        return Response.json({
          id: 'x',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          usage: {
            prompt_tokens: 2_000,
            completion_tokens: 1,
            total_tokens: 2_001,
            prompt_tokens_details: { cached_tokens: hit ? 1_900 : 0 },
          },
        })
      },
    })
    const catalog: CatalogFile = {
      gateways: ROUTES.map((id) => ({
        id,
        protocol: 'openai-chat' as const,
        baseUrl: `${up.url}/${id}/v1`,
        apiKey: 'k',
        timeoutMs: 2_000,
        policy: { retries: 0, breaker: { enabled: false } },
      })),
      models: [
        {
          id: 'acme/cached',
          name: 'cached',
          provider: 'acme',
          contextWindow: 128_000,
          capabilities: ['text'],
          pricing: { input: 1, output: 1, cacheRead: 0.1 },
          routes: ROUTES.map((gateway) => ({ gateway, model: 'm', priority: 0 })),
        },
        {
          id: 'acme/single',
          name: 'single',
          provider: 'acme',
          contextWindow: 128_000,
          capabilities: ['text'],
          pricing: { input: 1, output: 1, cacheRead: 0.1 },
          routes: [{ gateway: 'r1', model: 'm' }],
        },
      ],
    }
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, catalog)
    instances = [gw, await gw.peer(), await gw.peer()]
    for (const i of instances.slice(1)) await i.runtime.deps.catalog.refresh()
    ;({ key, keyId } = await gw.user(10, { rpm: 10_000 }))
  }, 60_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  }, 60_000)

  const system = (text: string) => ({ role: 'system', content: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] })
  /** Sends `n` calls round the instances; the share of them that read the cache. */
  async function share(n: number, body: Record<string, unknown>): Promise<number> {
    let hits = 0
    for (let i = 0; i < n; i++) {
      const res = await instances[i % 3]!.request('/v1/chat/completions', {
        method: 'POST',
        headers: bearer(key),
        body: JSON.stringify({ model: 'acme/cached', ...body }),
      })
      expect(res.status).toBe(200)
      if (((await res.json()) as any).usage.prompt_tokens_details.cached_tokens > 0) hits++
    }
    return hits / n
  }
  const question = (i: number) => ({ role: 'user', content: `question ${i}` })

  test('a repeated prefix up to a cache breakpoint: ≥ 90 % cache reads, all on one route', async () => {
    const from = served.length
    const messages = (i: number) => [system('You are a long, stable system prompt.'), question(i)]
    let hits = 0
    for (let i = 0; i < 30; i++) hits += await share(1, { messages: messages(i) })
    expect(hits / 30).toBeGreaterThanOrEqual(0.9)
    expect(new Set(served.slice(from)).size).toBe(1)
  }, 60_000)

  test('an explicit prompt_cache_key sticks the same way; without one or a breakpoint, calls spread', async () => {
    const from = served.length
    expect(await share(20, { prompt_cache_key: 'tenant-7', messages: [question(1)] })).toBeGreaterThanOrEqual(0.9)
    expect(new Set(served.slice(from)).size).toBe(1)
    const spread = served.length
    await share(8, { messages: [{ role: 'system', content: 'plain' }, question(2)] })
    expect(new Set(served.slice(spread)).size).toBe(4)
  }, 60_000)

  test('when the sticky route fails, the prefix moves to another route and stays there', async () => {
    const body = { prompt_cache_key: 'moving', messages: [question(3)] }
    await share(3, body)
    const first = served.at(-1)!
    down.add(first)
    const from = served.length
    expect(await share(20, body)).toBeGreaterThanOrEqual(0.9)
    const after = new Set(served.slice(from))
    expect(after.size).toBe(1)
    expect(after.has(first)).toBe(false)
    down.clear()
  }, 60_000)

  test('a model of one route remembers no prefix (nothing to choose); one of four does', async () => {
    const body = { messages: [system('single-route system prompt'), question(1)] }
    for (const model of ['acme/single', 'acme/cached']) {
      const res = await gw.request('/v1/chat/completions', {
        method: 'POST',
        headers: bearer(key),
        body: JSON.stringify({ model, ...body }),
      })
      expect(res.status).toBe(200)
    }
    const sticky = gw.runtime.deps.router.sticky
    expect(await sticky.get(cachePrefixKey(body, keyId, 'acme/single')!)).toBeUndefined()
    expect(await sticky.get(cachePrefixKey(body, keyId, 'acme/cached')!)).toBeString()
  })
})
