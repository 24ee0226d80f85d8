// docs/failover.md "Upstream limits": a route's tpm is taken as the call's estimate up front and
// corrected to the real usage once the answer reports it, so the window holds what the upstream
// counted: 100 tpm with 45-token estimates and 15-token answers serves exactly 4 calls a minute
// (15·3 + 45 = 90 fits, 15·4 + 45 = 105 does not) — 2 if estimates were kept.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { completionWithUsage } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, bearer, chatBody, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const STREAM =
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] })}\n\n` +
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 } })}\n\n` +
  'data: [DONE]\n\n'

for (const backends of ALL_BACKENDS)
  describe(`route tpm on real usage (${backends.db}+${backends.store})`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    let key: string
    beforeAll(async () => {
      up = startFakeUpstream({
        kind: 'fn',
        handle: (_req, body) =>
          body.stream
            ? new Response(STREAM, { headers: { 'content-type': 'text/event-stream' } })
            : Response.json(completionWithUsage(5, 10)),
      })
      const gateway = (id: string) => ({
        id,
        protocol: 'openai-chat' as const,
        baseUrl: `${up.url}/${id}/v1`,
        apiKey: 'k',
        timeoutMs: 2_000,
      })
      const model = (id: string) => ({
        id,
        name: id,
        provider: 'acme',
        contextWindow: 128_000,
        capabilities: ['text'],
        pricing: { input: 0.15, output: 0.6 },
        routes: [
          { gateway: 'a', model: 'm', tpm: 100 },
          { gateway: 'b', model: 'm' },
        ],
      })
      const catalog: CatalogFile = {
        gateways: [gateway('a'), gateway('b')],
        models: [
          model('acme/json'),
          {
            ...model('acme/stream'),
            routes: [
              { gateway: 'a', model: 's', tpm: 100 },
              { gateway: 'b', model: 's' },
            ],
          },
        ],
      }
      gw = await startTestGateway(backends, catalog)
      key = (await gw.user(5, { rpm: 1_000 })).key
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    }, 30_000)

    for (const stream of [false, true])
      test(`${stream ? 'streams' : 'JSON answers'}: exactly 4 of 8 calls reach the route, the rest the next one`, async () => {
        const from = up.seen.length
        for (let i = 0; i < 8; i++) {
          const res = await gw.request('/v1/chat/completions', {
            method: 'POST',
            headers: bearer(key),
            body: chatBody({ model: stream ? 'acme/stream' : 'acme/json', max_tokens: 40, stream }),
          })
          expect(res.status).toBe(200)
          await res.text()
        }
        const routes = up.seen.slice(from).map((s) => s.path.split('/')[1])
        expect(routes).toEqual(['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'])
      })
  })
