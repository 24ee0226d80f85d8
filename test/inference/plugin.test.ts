// The /v1 calls are Bun's own routes (v1ServerRoutes): a listening gateway serves them before the
// app, without its hooks, and answers them exactly as the app's own routes do; with CORS origins
// configured there are none, so the app's hook adds the grant to every /v1 answer.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { v1ServerRoutes } from '../../src/inference/plugin.ts'
import { chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'

const CALLS = ['/v1/chat/completions', '/v1/messages', '/v1/messages/count_tokens', '/v1/responses', '/v1/embeddings']
const json = { 'content-type': 'application/json' }

describe('/v1 calls on the server router', () => {
  let up: FakeUpstream
  let gw: TestGateway
  let cors: TestGateway
  const hooked: string[] = []
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
    const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog)
    cors = await startTestGateway({ db: 'pglite', store: 'memory' }, catalog, { CORS_ORIGINS: 'https://app.example' })
    // A request hook added by the test: it sees what the app handles, not what the router answers first.
    gw.app.onRequest(({ request }) => void hooked.push(new URL(request.url).pathname))
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    await cors.stop()
    up.stop()
  })

  test('every protocol call is a POST route of the server; none when CORS origins are set', () => {
    const routes = v1ServerRoutes(gw.runtime.deps)
    expect(Object.keys(routes).sort()).toEqual([...CALLS].sort())
    for (const path of CALLS) expect(Object.keys(routes[path]!)).toEqual(['POST'])
    expect(v1ServerRoutes(cors.runtime.deps)).toEqual({})
  })

  test('a listening gateway answers a call without the app, and as the app would', async () => {
    const base = gw.listen()
    const u = await gw.user(1)
    const ok = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${u.key}` },
      body: chatBody(),
    })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/)
    expect(((await ok.json()) as { model: string }).model).toBe('acme/chat-1')
    const viaServer = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: json, body: chatBody() })
    const viaApp = await gw.request('/v1/chat/completions', { method: 'POST', headers: json, body: chatBody() })
    expect(viaServer.status).toBe(401)
    expect(await viaServer.json()).toEqual(await viaApp.json())
    const health = await fetch(`${base}/healthz`)
    expect(health.status).toBe(200)
    expect(hooked.filter((p) => p === '/v1/chat/completions')).toHaveLength(1) // the app's own call above
    expect(hooked).toContain('/healthz')
  })

  test('with CORS origins, a listening gateway answers /v1 calls through the app, with the grant', async () => {
    const base = cors.listen()
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...json, origin: 'https://app.example' },
      body: chatBody(),
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })
})
