// docs/operations.md "Ledger writer", it never stalls: text that Postgres refuses (NUL, a lone
// surrogate, an emoji cut at character 200) is made safe before it is bound; a record Postgres
// still refuses is isolated by bisection, dead-lettered with its raw form and error, counted, and
// every other record of its batch is written; NOGROUP after Redis lost its data is repaired.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { encodeRecord } from '../../src/billing/outbox-record.ts'
import { ledgerDeadLetters, requestLogs } from '../../src/db/schema/index.ts'
import { completionWithUsage, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks, reservedNow } from '../helpers/money.ts'
import { usageRecord } from '../helpers/records.ts'
import { startThrowawayRedis, type ThrowawayRedis } from '../helpers/redis-server.ts'
import { describeServices } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

// 5 prompt + 100 completion tokens at 0.15 / 0.6 USD per 1M → 60.75 → 61 micro-USD.
const COST = 61n
const CREDIT = 1_000_000n
const EMOJI_CUT = 'm'.repeat(199) + '😀tail'
const POISON = ['acme/chat-1\u0000', 'acme/\ud800chat', EMOJI_CUT]

const hasLoneSurrogate = (s: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)

for (const backends of ALL_BACKENDS) {
  describe(`ledger writer faults on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    test('NUL, a lone surrogate and an emoji cut at 200 in `model` share a batch with billed calls: all reach Postgres', async () => {
      const u = await gw.user(1)
      await gw.runtime.writer.stop() // records gather in the outbox and are written as ONE batch
      const billed: { requestId: string; cost: bigint }[] = []
      const rejected: string[] = []
      for (let i = 0; i < 6; i++) {
        const poison = POISON[i % POISON.length]!
        const bad = await postChat(gw, u.key, { model: poison })
        if (poison === EMOJI_CUT) {
          // An unknown (long) model is answered and logged through the call pipeline.
          expect(bad.status).toBe(503)
          rejected.push(bad.headers.get('x-request-id')!)
        } else {
          // The edge refuses NUL and lone surrogates (docs/security.md); the writer's repair is the
          // defence behind it, so such a record is put in the outbox directly, as a rejected call.
          expect(bad.status).toBe(400)
          const requestId = `req_poison_${i}_${crypto.randomUUID()}`
          await gw.runtime.deps.store.appendOutbox(
            u.userId,
            encodeRecord({
              v: 1,
              requestId,
              userId: u.userId,
              keyId: u.keyId,
              model: poison,
              gateway: null,
              protocol: 'chat',
              stream: false,
              status: 503,
              errorCode: 'MODEL_UNAVAILABLE',
              usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
              cost: '0',
              usageSource: 'none',
              latencyMs: 1,
              at: Date.now(),
            }),
          )
          rejected.push(requestId)
        }
        const good = await postChat(gw, u.key)
        expect(good.status).toBe(200)
        billed.push({ requestId: good.headers.get('x-request-id')!, cost: COST })
      }
      await gw.settled()
      expect(gw.runtime.writer.counters.deadLettered).toBe(0)
      await expectExactBooks(gw, u.userId, CREDIT, billed)
      const rows = await gw.runtime.deps.db.select().from(requestLogs).where(inArray(requestLogs.id, rejected))
      expect(rows).toHaveLength(rejected.length)
      for (const row of rows) {
        expect(row.model).not.toContain('\u0000')
        expect(hasLoneSurrogate(row.model)).toBe(false)
        expect([...row.model].length).toBeLessThanOrEqual(200)
        expect(row.status).toBe(503)
      }
      expect(rows.map((r) => r.model)).toContain('acme/chat-1')
      expect(rows.map((r) => r.model)).toContain('acme/\ufffdchat')
      expect(rows.map((r) => r.model)).toContain('m'.repeat(199) + '😀')
      expect(await reservedNow(gw, u.userId)).toBe(0n)
    }, 60_000)

    test('a record Postgres refuses is dead-lettered with its raw form and error; the rest of its batch is billed', async () => {
      const u = await gw.user(1)
      const { store, db } = gw.runtime.deps
      const before = gw.runtime.writer.counters.deadLettered
      await gw.runtime.writer.stop()
      const billed: { requestId: string; cost: bigint }[] = []
      for (let i = 0; i < 5; i++) {
        const res = await postChat(gw, u.key)
        expect(res.status).toBe(200)
        billed.push({ requestId: res.headers.get('x-request-id')!, cost: COST })
      }
      // A usage record of a user that does not exist violates the ledger's foreign key (23503).
      const orphanId = `req_orphan_${crypto.randomUUID()}`
      const orphan = encodeRecord(
        usageRecord({
          requestId: orphanId,
          userId: 'usr_gone',
          keyId: 'key_gone',
          usage: { inputTokens: 5, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
          cost: '61',
        }),
      )
      await store.appendOutbox(u.userId, orphan)
      await store.appendOutbox(u.userId, 'not a record \u0000 {')
      for (let i = 0; i < 5; i++) {
        const res = await postChat(gw, u.key)
        expect(res.status).toBe(200)
        billed.push({ requestId: res.headers.get('x-request-id')!, cost: COST })
      }
      await gw.settled()
      expect(gw.runtime.writer.counters.deadLettered - before).toBe(2)
      await expectExactBooks(gw, u.userId, CREDIT, billed)
      const [dead] = await db.select().from(ledgerDeadLetters).where(eq(ledgerDeadLetters.requestId, orphanId))
      expect(dead!.raw).toBe(orphan)
      expect(dead!.error).toContain('23503')
      const unreadable = await db.select().from(ledgerDeadLetters).where(eq(ledgerDeadLetters.raw, 'not a record \\u0000 {'))
      expect(unreadable).toHaveLength(1)
      expect(unreadable[0]!.error).toBe('unreadable outbox record')
      // Redelivery of the same batch adds no second dead letter and bills nothing twice.
      await store.appendOutbox(u.userId, orphan)
      await gw.settled()
      expect((await db.select().from(ledgerDeadLetters).where(eq(ledgerDeadLetters.requestId, orphanId))).length).toBe(1)
      await expectExactBooks(gw, u.userId, CREDIT, billed)
    }, 60_000)
  })
}

describeServices('ledger writer after Redis lost its data (NOGROUP), postgres + own redis-server', () => {
  let redis: ThrowawayRedis
  let up: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    redis = await startThrowawayRedis(6390, { aof: false })
    up = startFakeUpstream({ kind: 'json', body: completionWithUsage(5, 100) })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url }]), { REDIS_URL: redis.url })
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
    await redis.stop()
  })

  test('the writer recreates its consumer group and the records written since reach Postgres', async () => {
    const u = await gw.user(1)
    const first = await postChat(gw, u.key)
    expect(first.status).toBe(200)
    await gw.settled()
    const admin = redis.client()
    await admin.flushall()
    admin.disconnect()
    const billed = [{ requestId: first.headers.get('x-request-id')!, cost: COST }]
    for (let i = 0; i < 5; i++) {
      const res = await postChat(gw, u.key)
      expect(res.status).toBe(200)
      billed.push({ requestId: res.headers.get('x-request-id')!, cost: COST })
    }
    const last = billed.at(-1)!.requestId
    await until(
      async () => (await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, last))).length === 1,
      'records written after NOGROUP',
    )
    expect(gw.runtime.writer.counters.groupRepairs).toBeGreaterThanOrEqual(1)
    await gw.settled()
    await expectExactBooks(gw, u.userId, CREDIT, billed)
    expect(await reservedNow(gw, u.userId)).toBe(0n)
  }, 60_000)

  test('Redis killed and restarted empty: calls are served again, the writer repairs its group, books exact', async () => {
    const u = await gw.user(1)
    const first = await postChat(gw, u.key)
    expect(first.status).toBe(200)
    await gw.settled()
    const repairs = gw.runtime.writer.counters.groupRepairs
    await redis.kill()
    await redis.start(false) // no data: mirrors, outbox streams and consumer groups are gone
    const billed = [{ requestId: first.headers.get('x-request-id')!, cost: COST }]
    let res: Response | undefined
    await until(async () => (res = await postChat(gw, u.key)).status === 200, 'a call served by the empty Redis')
    billed.push({ requestId: res!.headers.get('x-request-id')!, cost: COST })
    await until(
      async () => (await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.id, billed[1]!.requestId))).length === 1,
      'the record written by the running writer',
    )
    expect(gw.runtime.writer.counters.groupRepairs).toBeGreaterThan(repairs)
    await gw.settled()
    await expectExactBooks(gw, u.userId, CREDIT, billed)
    expect(await reservedNow(gw, u.userId)).toBe(0n)
  }, 60_000)
})
