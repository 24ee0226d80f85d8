// docs/operations.md "Redis: settings and failure behaviour", outages degrade cleanly — Redis down:
// every protocol answers 503 in its own envelope with Retry-After (no 500, no hang on an offline
// queue), requests are served again once Redis is back, and the books stay exact (503s bill
// nothing; their log rows still reach Postgres through the settlement fallback). A paused Redis
// (SIGSTOP) hits the command timeout.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'
import { completionWithUsage, expectChatError, expectNoUpstreamIdentity, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks, reservedNow, untilLogged } from '../helpers/money.ts'
import { startThrowawayRedis, type ThrowawayRedis } from '../helpers/redis-server.ts'
import { describeServices } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const COST = 61n // 5 prompt + 100 completion tokens at 0.15 / 0.6 USD per 1M
const CREDIT = 1_000_000n

describeServices('Redis unreachable (postgres + own redis-server with AOF)', () => {
  let redis: ThrowawayRedis
  let up: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    redis = await startThrowawayRedis(6391, { aof: true })
    up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url }]), {
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: '400',
    })
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
    await redis.stop()
  })

  const post = (key: string, path: string, body: unknown) =>
    gw.request(path, { method: 'POST', headers: bearer(key), body: JSON.stringify(body) })

  test('killed: 503 with Retry-After in each protocol’s envelope; served again when it returns; books exact', async () => {
    const u = await gw.user(1)
    const warm = await postChat(gw, u.key)
    expect(warm.status).toBe(200)
    const billed = [{ requestId: warm.headers.get('x-request-id')!, cost: COST }]
    await gw.runtime.deps.inflight.settled() // (a settle cut by the kill: settle-failure.test.ts)
    const upstreamCalls = up.seen.length
    await redis.kill()

    const chat = await postChat(gw, u.key)
    expect(chat.headers.get('retry-after')).toBe('1')
    const chatText = await chat.clone().text()
    expectNoUpstreamIdentity(chatText, chat.headers, ['6391', 'ECONNREFUSED', 'redis'])
    await expectChatError(chat, 503, 'SERVICE_UNAVAILABLE')

    const messages = await post(u.key, '/v1/messages', {
      model: 'acme/chat-1',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(messages.status).toBe(503)
    expect(messages.headers.get('retry-after')).toBe('1')
    expect(await messages.json()).toEqual({ type: 'error', error: { type: 'api_error', message: expect.any(String) } })

    const responses = await post(u.key, '/v1/responses', { model: 'acme/chat-1', input: 'hi' })
    expect(responses.status).toBe(503)
    expect(responses.headers.get('retry-after')).toBe('1')
    expect(((await responses.json()) as any).error).toMatchObject({ type: 'server_error', code: 'service_unavailable' })
    expect(up.seen.length).toBe(upstreamCalls) // nothing reached the upstream unreserved
    const refused = [chat, messages, responses].map((r) => r.headers.get('x-request-id')!)

    await redis.start(true)
    let back: Response | undefined
    await until(async () => {
      back = await postChat(gw, u.key)
      return back.status === 200
    }, 'a call served after Redis returned')
    billed.push({ requestId: back!.headers.get('x-request-id')!, cost: COST })

    await untilLogged(gw, [...billed.map((b) => b.requestId), ...refused]) // the running writer, not settled()'s drain
    await gw.settled()
    await expectExactBooks(gw, u.userId, CREDIT, billed)
    const { db } = gw.runtime.deps
    const logs = await db.select().from(requestLogs).where(inArray(requestLogs.id, refused))
    expect(logs.map((l) => l.status)).toEqual([503, 503, 503])
    // Refused calls cost nothing and no usage entry covers them.
    expect(logs.map((l) => [l.costMicros, l.ledgerEntryId])).toEqual([
      [0n, null],
      [0n, null],
      [0n, null],
    ])
    expect(await reservedNow(gw, u.userId)).toBe(0n)
  }, 60_000)

  test('paused (SIGSTOP): the command timeout answers 503 instead of a hang; served again after SIGCONT', async () => {
    const u = await gw.user(1)
    expect((await postChat(gw, u.key)).status).toBe(200)
    await gw.runtime.deps.inflight.settled() // its settle is done: only the admit meets the pause
    const drops = gw.runtime.deps.rescue.counters.mirrorDrops
    redis.signal('SIGSTOP')
    let refusedId = ''
    try {
      const res = await postChat(gw, u.key)
      expect(res.headers.get('retry-after')).toBe('1')
      refusedId = res.headers.get('x-request-id')!
      await expectChatError(res, 503, 'SERVICE_UNAVAILABLE')
    } finally {
      redis.signal('SIGCONT')
    }
    await until(async () => (await postChat(gw, u.key)).status === 200, 'a call served after SIGCONT')
    await gw.settled()
    const books = await gw.books(u.userId)
    expect(books.balance).toBe(books.ledgerSum)
    expect(books.balance).toBe(CREDIT - 2n * COST) // the first call and the one after SIGCONT
    // The admit answered 503 ran when Redis woke; the mirror dropped after it took its reservation
    // along, and its lease: no sweep will bill the refused call as abandoned.
    expect(await reservedNow(gw, u.userId)).toBe(0n)
    expect(await gw.runtime.deps.store.renewLease(u.userId, refusedId, Date.now() + 60_000)).toBe(false)
    expect(gw.runtime.deps.rescue.counters.mirrorDrops).toBeGreaterThan(drops)
    expect((await db(gw).select().from(requestLogs).where(eq(requestLogs.userId, u.userId))).length).toBeGreaterThanOrEqual(3)
  }, 60_000)
})

const db = (gw: TestGateway) => gw.runtime.deps.db
