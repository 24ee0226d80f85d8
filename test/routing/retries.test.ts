// Same-route retries (docs/failover.md "Retries"), played against a scripted upstream: Retry-After
// honoured up to its cap, one jittered backoff after a 500, a hang retried after its timeout, a
// persistent failure leaving for the next route after `retries`, a 400 never retried. Asserts the
// attempts each upstream saw, the least delay between them, what the client got and the money.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { expectChatError, expectNoUpstreamIdentity, logOf, postChat, reservedOf } from '../helpers/chat.ts'
import { expectBilledOnce, expectNothingBilled, gaps, NO_RETRY, scenarioCatalog } from '../helpers/failover.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { ALL_BACKENDS, bearer, chatBody, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { until } from '../helpers/until.ts'

const ANSWER = { kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') } as const
const RETRY = { retries: 2, backoffMs: 100, backoffMaxMs: 400, retryAfterMaxMs: 1_500, deadlineMs: 20_000, breaker: { enabled: false } }
/** Waits out a Retry-After of up to a minute. */
const PATIENT = { ...RETRY, retryAfterMaxMs: 60_000, deadlineMs: 120_000 }

for (const backends of ALL_BACKENDS) {
  describe(`same-route retries on ${backends.db}+${backends.store}`, () => {
    let a: FakeUpstream
    let b: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      a = startFakeUpstream(ANSWER)
      b = startFakeUpstream(ANSWER)
      const catalog = scenarioCatalog(
        [
          { id: 'gw-retry', url: a.url, timeoutMs: 1_000, policy: RETRY },
          { id: 'gw-defaults', url: a.url, timeoutMs: 5_000, policy: {} },
          { id: 'gw-patient', url: a.url, timeoutMs: 5_000, policy: PATIENT },
          { id: 'gw-b', url: b.url, timeoutMs: 10_000, policy: NO_RETRY },
          { id: 'gw-capped', url: a.url, timeoutMs: 1_000, policy: RETRY },
        ],
        [
          { id: 'acme/retry', routes: ['gw-retry', 'gw-b'] },
          { id: 'acme/defaults', routes: ['gw-defaults', 'gw-b'] },
          { id: 'acme/patient', routes: ['gw-patient', 'gw-b'] },
          { id: 'acme/capped', routes: ['gw-capped', 'gw-b'] },
        ],
      )
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      a.stop()
      b.stop()
    }, 30_000)

    /** Posts one chat call and returns the response with the attempts each upstream saw. */
    async function call(model: string) {
      const u = await gw.user(1)
      const [seenA, seenB] = [a.seen.length, b.seen.length]
      const retries = gw.runtime.deps.router.counters.retries
      const res = await postChat(gw, u.key, { model })
      return {
        u,
        res,
        attemptsA: () => a.seen.length - seenA,
        attemptsB: () => b.seen.length - seenB,
        retries: () => gw.runtime.deps.router.counters.retries - retries,
      }
    }

    test('429 with Retry-After: 1, then healthy → waits the second, the same route answers; the fallback is never asked', async () => {
      a.script({ kind: 'status', status: 429, headers: { 'retry-after': '1' } })
      const c = await call('acme/retry')
      expect(c.res.status).toBe(200)
      const body = (await c.res.json()) as any
      expect(body.svc.gateway).toBe('gw-retry')
      expect(c.attemptsA()).toBe(2)
      expect(c.attemptsB()).toBe(0)
      expect(c.retries()).toBe(1)
      expect(gaps(a.seen, 2)[0]).toBeGreaterThanOrEqual(995)
      expect(a.seen.at(-1)!.body.model).toBe('upstream-secret-model-gw-retry')
      await expectBilledOnce(gw, c.u.userId, c.res.headers.get('x-request-id')!, 'gw-retry', 221n)
    })

    test('retry-after-ms (OpenAI) is honoured the same way', async () => {
      a.script(
        { kind: 'status', status: 503, headers: { 'retry-after-ms': '400' } },
        { kind: 'status', status: 429, headers: { 'retry-after-ms': '300' } },
      )
      const c = await call('acme/retry')
      expect(((await c.res.json()) as any).svc.gateway).toBe('gw-retry')
      expect(c.attemptsA()).toBe(3)
      const [first, second] = gaps(a.seen, 3)
      expect(first).toBeGreaterThanOrEqual(395)
      expect(second).toBeGreaterThanOrEqual(295)
      await expectBilledOnce(gw, c.u.userId, c.res.headers.get('x-request-id')!, 'gw-retry', 221n)
    })

    test('a Retry-After beyond the cap is not waited: the next route answers at once, and the route cools without its breaker', async () => {
      a.script({ kind: 'status', status: 429, headers: { 'retry-after': '30' } })
      const c = await call('acme/capped')
      expect(((await c.res.json()) as any).svc.gateway).toBe('gw-b')
      expect(c.attemptsA()).toBe(1)
      expect(c.attemptsB()).toBe(1)
      expect(c.retries()).toBe(0)
      await expectBilledOnce(gw, c.u.userId, c.res.headers.get('x-request-id')!, 'gw-b', 221n)
      // docs/failover.md "429 cools a route": the next call does not ask it at all.
      const next = await call('acme/capped')
      expect(((await next.res.json()) as any).svc.gateway).toBe('gw-b')
      expect(next.attemptsA()).toBe(0)
      expect(gw.runtime.deps.router.breakers.phase('gw:gw-capped|model:upstream-secret-model-gw-capped')).toBe('closed')
    })

    test('500 once, then healthy, with the default policy → one retry after a jittered backoff (≥ half of 250 ms)', async () => {
      a.script({ kind: 'status', status: 500 })
      const c = await call('acme/defaults')
      expect(((await c.res.json()) as any).svc.gateway).toBe('gw-defaults')
      expect(c.attemptsA()).toBe(2)
      expect(c.attemptsB()).toBe(0)
      expect(gaps(a.seen, 2)[0]).toBeGreaterThanOrEqual(120)
      await expectBilledOnce(gw, c.u.userId, c.res.headers.get('x-request-id')!, 'gw-defaults', 221n)
    })

    test('a hang ends at the timeout and is retried on the same route', async () => {
      a.script({ kind: 'hang' })
      const c = await call('acme/retry')
      expect(((await c.res.json()) as any).svc.gateway).toBe('gw-retry')
      expect(c.attemptsA()).toBe(2)
      expect(gaps(a.seen, 2)[0]).toBeGreaterThanOrEqual(1_000) // the timeout (1000 ms) and a backoff (≥ 50 ms), less the time the first request took to arrive
      await expectBilledOnce(gw, c.u.userId, c.res.headers.get('x-request-id')!, 'gw-retry', 221n)
    })

    test('a persistent 5xx: 1 + `retries` attempts with growing backoff, then the next route serves; billed only there', async () => {
      a.script(...[502, 500, 503].map((status) => ({ kind: 'status' as const, status })))
      const c = await call('acme/retry')
      const text = await c.res.text()
      expect(JSON.parse(text).svc.gateway).toBe('gw-b')
      expect(c.attemptsA()).toBe(3)
      expect(c.attemptsB()).toBe(1)
      const [first, second] = gaps(a.seen, 3)
      expect(first).toBeGreaterThanOrEqual(45) // ≥ half of 100 ms
      expect(second).toBeGreaterThanOrEqual(95) // ≥ half of 200 ms
      expectNoUpstreamIdentity(text, c.res.headers, [new URL(a.url).host, new URL(b.url).host])
      await expectBilledOnce(gw, c.u.userId, c.res.headers.get('x-request-id')!, 'gw-b', 221n)
    })

    test('every attempt failing → 502 without upstream detail, nothing billed', async () => {
      a.script(...[500, 500, 500].map((status) => ({ kind: 'status' as const, status })))
      b.script({ kind: 'status', status: 503 })
      const c = await call('acme/retry')
      await expectChatError(c.res, 502, 'UPSTREAM_ERROR')
      expect(c.attemptsA()).toBe(3)
      expect(c.attemptsB()).toBe(1)
      await expectNothingBilled(gw, c.u.userId, c.res.headers.get('x-request-id')!, 502)
    })

    test('a client that leaves during a Retry-After wait ends its call at once: no second attempt, no other route, logged 499, books exact', async () => {
      const u = await gw.user(1)
      const [seenA, seenB] = [a.seen.length, b.seen.length]
      const retries = gw.runtime.deps.router.counters.retries
      a.script({ kind: 'status', status: 429, headers: { 'retry-after': '60' } })
      const client = new AbortController()
      const pending = fetch(`${gw.listen()}/v1/chat/completions`, {
        method: 'POST',
        headers: bearer(u.key),
        body: chatBody({ model: 'acme/patient' }),
        signal: client.signal,
      }).catch((e: Error) => e)
      await until(() => gw.runtime.deps.router.counters.backingOff > 0, 'the call waiting out its Retry-After')
      client.abort()
      expect(await pending).toBeInstanceOf(Error)
      // Sleeping out the minute would hold the reservation past this wait (10 s at most).
      await until(async () => (await reservedOf(gw, u.userId)) === 0n, 'the call to end')
      await gw.settled()
      expect([a.seen.length - seenA, b.seen.length - seenB]).toEqual([1, 0])
      // The retry it waited for never happened: not counted.
      expect(gw.runtime.deps.router.counters.retries).toBe(retries)
      const logs = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, u.userId))
      expect(logs).toHaveLength(1)
      const log = await logOf(gw, logs[0]!.id)
      expect([log.status, log.errorCode]).toEqual([499, 'CLIENT_CLOSED'])
      const books = await gw.books(u.userId)
      expect(books).toEqual({ balance: 1_000_000n - log.costMicros, ledgerSum: 1_000_000n - log.costMicros })
    })

    test('a 400 is never retried, on this route or another', async () => {
      a.script({ kind: 'status', status: 400, body: fixtureJson('openai-chat', 'error-400-unsupported-parameter.json') })
      const c = await call('acme/retry')
      await expectChatError(c.res, 400, 'BAD_REQUEST')
      expect(c.attemptsA()).toBe(1)
      expect(c.attemptsB()).toBe(0)
      await expectNothingBilled(gw, c.u.userId, c.res.headers.get('x-request-id')!, 400)
    })
  })
}
