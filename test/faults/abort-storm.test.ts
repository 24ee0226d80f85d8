// An abort storm (docs/failover.md "Who ended the call"): many clients leave mid-call — JSON calls
// while the upstream works, streams after their first frames — from a slow but healthy upstream
// on a single-route model whose breaker opens on two failures. None of it is an upstream failure:
// afterwards every instance's breaker is closed, no retry was made or counted, healthy calls on
// every instance are answered 200, and every left call is billed once (499) with the books exact.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { CatalogFile } from '../../src/catalog/file.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import { gatewayKey, routeKey } from '../../src/routing/breakers.ts'
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, bearer, type GatewayInstance, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { longJson, longStream } from '../helpers/long-streams.ts'
import { expectExactBooks, reservedNow } from '../helpers/money.ts'
import { until } from '../helpers/until.ts'

const LEAVERS = 30
const SLOW_MS = 300

function catalog(up: FakeUpstream): CatalogFile {
  return {
    gateways: [
      {
        id: 'gw-slow',
        protocol: 'openai-chat',
        baseUrl: `${up.url}/v1`,
        apiKey: 'sk-upstream-secret',
        timeoutMs: 10_000,
        policy: { retries: 2, backoffMs: 10, breaker: { failures: 2, cooldownMs: 600_000 } },
      },
    ],
    models: [
      {
        id: 'acme/slow',
        name: 'Slow',
        provider: 'acme',
        contextWindow: 200_000,
        capabilities: ['text', 'streaming'],
        pricing: { input: 1, output: 10 },
        routes: [{ gateway: 'gw-slow', model: 'up-model' }],
      },
    ],
  }
}

/** Slow but healthy: a JSON answer after SLOW_MS; a stream's first frames at once, the rest after SLOW_MS. */
function slowAnswer(up: FakeUpstream) {
  up.fallback = {
    kind: 'fn',
    handle: async (_req, body) => {
      if (!body.stream) return Bun.sleep(SLOW_MS).then(() => Response.json(longJson('openai-chat')))
      const s = longStream('openai-chat')
      const enc = new TextEncoder()
      return new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(enc.encode(s.head as string)) // an SSE protocol's parts are text
            await Bun.sleep(SLOW_MS)
            try {
              c.enqueue(enc.encode(s.tail as string))
              c.close()
            } catch {}
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    },
  }
}

const body = (stream: boolean) =>
  JSON.stringify({ model: 'acme/slow', stream, max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] })

for (const backends of ALL_BACKENDS)
  describe(`an abort storm on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    const instances: GatewayInstance[] = []
    beforeAll(async () => {
      up = startFakeUpstream()
      slowAnswer(up)
      gw = await startTestGateway(backends, catalog(up))
      instances.push(gw)
      if (backends.store === 'redis') instances.push(await gw.peer())
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    /** One call that leaves: a JSON call once the upstream works on it, a stream after its first frames. */
    async function leave(instance: GatewayInstance, key: string, stream: boolean): Promise<void> {
      const client = new AbortController()
      const seen = up.seen.length
      const pending = instance.request('/v1/chat/completions', {
        method: 'POST',
        headers: bearer(key),
        body: body(stream),
        signal: client.signal,
      })
      if (!stream) {
        await until(() => up.seen.length > seen, 'the upstream to be working on the call')
        client.abort()
        await pending.catch(() => {})
        return
      }
      const res = await pending
      const reader = res.body!.getReader()
      await reader.read()
      await reader.cancel()
      client.abort()
    }

    test('clients leaving mid-call touch no breaker and no retry; healthy calls are answered on every instance', async () => {
      const before = instances.map((i) => ({ ...i.runtime.deps.router.counters.snapshot() }))
      const leavers = await Promise.all(Array.from({ length: LEAVERS }, () => gw.user(5)))
      await Promise.all(leavers.map((u, i) => leave(instances[i % instances.length]!, u.key, i % 2 === 1)))
      // Every left call is settled once, as the client's leaving.
      const logsOf = (userId: string) => gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, userId))
      await until(
        async () => (await gw.settled(), (await Promise.all(leavers.map((u) => logsOf(u.userId)))).every((r) => r.length === 1)),
        'every left call written',
      )
      for (const u of leavers) {
        const [log] = await logsOf(u.userId)
        expect([log!.status, log!.errorCode]).toEqual([499, 'CLIENT_CLOSED'])
        await expectExactBooks(gw, u.userId, 5_000_000n, [{ requestId: log!.id, cost: log!.costMicros }])
        expect(await reservedNow(gw, u.userId)).toBe(0n)
      }
      const route = { gateway: { id: 'gw-slow' }, upstreamModel: 'up-model' } as never
      for (const [i, instance] of instances.entries()) {
        const { breakers, counters } = instance.runtime.deps.router
        expect([breakers.phase(gatewayKey(route)), breakers.phase(routeKey(route))]).toEqual(['closed', 'closed'])
        expect(counters.snapshot()).toMatchObject({ retries: before[i]!.retries, breakerOpened: before[i]!.breakerOpened })
      }
      // Healthy calls, JSON and streams, on every instance.
      const healthy = await gw.user(5)
      for (const instance of instances)
        for (let i = 0; i < 10; i++) {
          const res = await instance.request('/v1/chat/completions', {
            method: 'POST',
            headers: bearer(healthy.key),
            body: body(i % 2 === 1),
          })
          expect(res.status).toBe(200)
          await res.text()
        }
    })
  })
