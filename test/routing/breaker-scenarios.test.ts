// Circuit breaking end to end (docs/failover.md "Circuit breaker"): a black-holed first route is
// skipped after a few failures, probed once after the cool-down and back in rotation when the
// probe succeeds; a primary that is down for a while and then back (a failed probe re-opens it);
// a model with every route open fails fast; and on postgres+redis a second instance skips a route
// another instance found broken, without paying the discovery cost itself.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { expectChatError, postChat } from '../helpers/chat.ts'
import { expectBilledOnce, expectNothingBilled, NO_RETRY, scenarioCatalog } from '../helpers/failover.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { ALL_BACKENDS, startTestGateway, type GatewayInstance, type TestGateway } from '../helpers/gateway.ts'
import { until } from '../helpers/until.ts'

const ANSWER = { kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') } as const
const COOLDOWN = 500
const BREAKER = { retries: 0, breaker: { failures: 2, cooldownMs: COOLDOWN } }

for (const backends of ALL_BACKENDS) {
  describe(`circuit breaking on ${backends.db}+${backends.store}`, () => {
    let hole: FakeUpstream
    let flap: FakeUpstream
    let shared: FakeUpstream
    let b: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      hole = startFakeUpstream({ kind: 'hang' })
      flap = startFakeUpstream({ kind: 'status', status: 503 })
      shared = startFakeUpstream({ kind: 'hang' })
      b = startFakeUpstream(ANSWER)
      const catalog = scenarioCatalog(
        [
          { id: 'gw-hole', url: hole.url, timeoutMs: 800, policy: BREAKER },
          { id: 'gw-flap', url: flap.url, timeoutMs: 5_000, policy: BREAKER },
          { id: 'gw-shared', url: shared.url, timeoutMs: 200, policy: { retries: 0, breaker: { failures: 2, cooldownMs: 600_000 } } },
          { id: 'gw-b', url: b.url, timeoutMs: 10_000, policy: NO_RETRY },
        ],
        [
          { id: 'acme/hole', routes: ['gw-hole', 'gw-b'] },
          { id: 'acme/flap', routes: ['gw-flap', 'gw-b'] },
          { id: 'acme/flap-only', routes: ['gw-flap'] },
          { id: 'acme/shared', routes: ['gw-shared', 'gw-b'] },
        ],
      )
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      for (const u of [hole, flap, shared, b]) u.stop()
    }, 30_000)
    const router = (g: Pick<TestGateway, 'runtime'> = gw) => g.runtime.deps.router

    /** One call; returns the gateway that served it (or the status) and the call's ids. */
    async function call(model: string, g: Pick<TestGateway, 'request'> = gw) {
      const u = await gw.user(1)
      const res = await postChat(gw === g ? gw : (g as TestGateway), u.key, { model })
      const body = (await res.clone().json()) as any
      return {
        u,
        res,
        servedBy: res.status === 200 ? (body.svc.gateway as string) : `status ${res.status}`,
        requestId: res.headers.get('x-request-id')!,
      }
    }

    test('black-holed first route: two timeouts open its breaker; then calls skip it (no attempt, no timeout) until one probe after the cool-down succeeds', async () => {
      const seen = hole.seen.length
      for (let i = 0; i < 2; i++) expect((await call('acme/hole')).servedBy).toBe('gw-b')
      expect(hole.seen.length).toBe(seen + 2)
      expect(router().breakers.phase('gw:gw-hole')).toBe('open')
      const skips = router().counters.breakerSkips
      for (let i = 0; i < 3; i++) {
        const c = await call('acme/hole')
        expect(c.servedBy).toBe('gw-b')
        await expectBilledOnce(gw, c.u.userId, c.requestId, 'gw-b', 221n)
      }
      expect(hole.seen.length).toBe(seen + 2)
      expect(router().counters.breakerSkips).toBe(skips + 3)
      hole.fallback = ANSWER
      await Bun.sleep(COOLDOWN) // the cool-down itself is what is tested
      const probe = await call('acme/hole')
      expect(probe.servedBy).toBe('gw-hole')
      await expectBilledOnce(gw, probe.u.userId, probe.requestId, 'gw-hole', 221n)
      expect(router().breakers.phase('gw:gw-hole')).toBe('closed')
      expect((await call('acme/hole')).servedBy).toBe('gw-hole')
      expect(hole.seen.length).toBe(seen + 4)
    })

    test('primary down, then back: straight to the fallback during the outage; a failed probe re-opens; back in rotation once the probe succeeds', async () => {
      const seen = flap.seen.length
      for (let i = 0; i < 2; i++) expect((await call('acme/flap')).servedBy).toBe('gw-b')
      // Error answers about one model open that route's breaker, not the gateway's.
      expect(router().breakers.phase('gw:gw-flap|model:upstream-secret-model-gw-flap')).toBe('open')
      expect(router().breakers.phase('gw:gw-flap')).toBe('closed')
      expect((await call('acme/flap')).servedBy).toBe('gw-b')
      expect(flap.seen.length).toBe(seen + 2)
      await Bun.sleep(COOLDOWN)
      expect((await call('acme/flap')).servedBy).toBe('gw-b') // the probe: still down
      expect(flap.seen.length).toBe(seen + 3)
      expect((await call('acme/flap')).servedBy).toBe('gw-b') // re-opened: skipped
      expect(flap.seen.length).toBe(seen + 3)
      flap.fallback = ANSWER
      await Bun.sleep(COOLDOWN)
      expect((await call('acme/flap')).servedBy).toBe('gw-flap')
      expect((await call('acme/flap')).servedBy).toBe('gw-flap')
      expect(flap.seen.length).toBe(seen + 5)
    })

    test('every route of a model open → 503 with Retry-After at once, without an upstream call; nothing billed', async () => {
      flap.fallback = { kind: 'status', status: 503 }
      for (let i = 0; i < 2; i++) await call('acme/flap-only')
      const seen = flap.seen.length
      const c = await call('acme/flap-only')
      await expectChatError(c.res, 503, 'UPSTREAM_UNAVAILABLE')
      // The cool-down (500 ms) rounded up to whole seconds: when the first route may be probed.
      expect(c.res.headers.get('retry-after')).toBe('1')
      expect(flap.seen.length).toBe(seen)
      await expectNothingBilled(gw, c.u.userId, c.requestId, 503)
    })

    if (backends.store === 'redis')
      test('another instance learns the open breaker through Redis and skips the route without a failure of its own', async () => {
        const peer: GatewayInstance = await gw.peer()
        for (let i = 0; i < 2; i++) expect((await call('acme/shared')).servedBy).toBe('gw-b')
        expect(router().breakers.phase('gw:gw-shared')).toBe('open')
        await until(() => router(peer).breakers.phase('gw:gw-shared') === 'open', 'the peer sees the breaker open')
        const seen = shared.seen.length
        const c = await call('acme/shared', peer)
        expect(c.servedBy).toBe('gw-b')
        expect(shared.seen.length).toBe(seen)
        expect(router(peer).counters.breakerSkips).toBeGreaterThan(0)
        expect(router(peer).counters.attempts).toBe(1)
      })
  })
}
