// docs/operations.md "Settlement fallback", no settlement is dropped: when the store's settle round
// trip fails, the answered call is still billed exactly once (written straight to Postgres through
// the writer's idempotent statement) and the account's mirror is dropped, so the next admission
// reloads balance and reservations from Postgres. Covered: Redis killed while calls wait for the
// upstream (AOF keeps the stale reservations: they go with the mirror), a settle whose reply is
// lost after it ran (the outbox copy then inserts nothing), and one that never ran.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { applyMovement } from '../../src/billing/accounts.ts'
import type { SettleInput } from '../../src/store/types.ts'
import { completionWithUsage, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks, reservedNow } from '../helpers/money.ts'
import { startThrowawayRedis, type ThrowawayRedis } from '../helpers/redis-server.ts'
import { describeServices } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const COST = 61n // 5 prompt + 100 completion tokens at 0.15 / 0.6 USD per 1M
const CREDIT = 1_000_000n
const ANSWER = completionWithUsage(5, 100)

describeServices('Redis killed while calls wait for the upstream (postgres + own redis-server with AOF)', () => {
  let redis: ThrowawayRedis
  let up: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    redis = await startThrowawayRedis(6392, { aof: true })
    up = startFakeUpstream({ kind: 'json', body: ANSWER })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url, timeoutMs: 30_000 }]), {
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: '400',
    })
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
    await redis.stop()
  })

  test('every 200 is billed exactly once; the stale reservations go with the dropped mirror', async () => {
    const u = await gw.user(1)
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const held = () => ({ kind: 'fn' as const, handle: async () => (await gate, Response.json(ANSWER)) })
    up.script(held(), held(), held())
    const seen = up.seen.length
    const calls = [0, 1, 2].map(() => postChat(gw, u.key))
    await until(() => up.seen.length === seen + 3, 'three calls at the upstream')
    expect(await reservedNow(gw, u.userId)).toBeGreaterThan(0n)
    await redis.kill()
    release()
    const answered = await Promise.all(calls)
    for (const res of answered) expect(res.status).toBe(200)
    await gw.runtime.deps.inflight.settled()
    const { rescue } = gw.runtime.deps
    expect(rescue.counters.writtenDirect).toBe(3)

    await redis.start(true) // AOF: the account hash comes back with the three reservations
    await until(() => rescue.spooled === 0, 'mirror dropped once Redis is back')
    expect(await reservedNow(gw, u.userId)).toBe(0n)
    const billed = answered.map((r) => ({ requestId: r.headers.get('x-request-id')!, cost: COST }))
    let next: Response | undefined
    await until(async () => (next = await postChat(gw, u.key)).status === 200, 'a call served after Redis returned')
    billed.push({ requestId: next!.headers.get('x-request-id')!, cost: COST })
    await gw.settled()
    await expectExactBooks(gw, u.userId, CREDIT, billed)
    expect(await reservedNow(gw, u.userId)).toBe(0n)
    const hot = await gw.runtime.deps.store.account(u.userId)
    expect(hot?.balanceMicros).toBe(CREDIT - COST * 4n)
  }, 60_000)
})

// Settle during a Redis outage, repeated: Redis comes back from its append-only file with the
// account's mirror as it was before the calls settled through the fallback (their reservations
// still held), and their mirror drops wait in the spool for the next retry. The call that comes
// next, which the balance left covers only once those reservations are gone, must be admitted: the waiting drops run before its
// admission, and a reload does not hold again the leases of calls Postgres already has.
const ROUNDS = 5
const IN_FLIGHT = 10

describeServices('settle during a Redis outage (postgres + own redis-server with AOF)', () => {
  let redis: ThrowawayRedis
  let up: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    redis = await startThrowawayRedis(6394, { aof: true })
    up = startFakeUpstream({ kind: 'json', body: ANSWER })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url, timeoutMs: 30_000 }]), {
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: '400',
    })
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
    await redis.stop()
  })

  /** Holds the next `n` calls at the upstream until the returned release. */
  const holdNext = (n: number) => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    up.script(...Array.from({ length: n }, () => ({ kind: 'fn' as const, handle: async () => (await gate, Response.json(ANSWER)) })))
    return release
  }

  test(`${ROUNDS} rounds: ${IN_FLIGHT} calls settled through the fallback, then a call the balance covers is admitted`, async () => {
    const { db, store, rescue } = gw.runtime.deps
    // What one call reserves, measured on a held probe.
    const probe = await gw.user(1)
    const releaseProbe = holdNext(1)
    const seen0 = up.seen.length
    const probed = postChat(gw, probe.key)
    await until(() => up.seen.length === seen0 + 1, 'the probe at the upstream')
    const reserve = await reservedNow(gw, probe.userId)
    releaseProbe()
    expect((await probed).status).toBe(200)
    expect(reserve).toBeGreaterThan(COST)

    for (let round = 0; round < ROUNDS; round++) {
      const u = await gw.user(0)
      // Just enough for the calls in flight to be admitted together (the last needs credit −
      // 2·(n−1)·reserve ≥ reserve, docs/operations.md "Overdraft"); after them the balance left
      // covers the next call, but not while their reservations are still held.
      const credit = reserve * BigInt(2 * IN_FLIGHT - 1)
      expect(credit - COST * BigInt(IN_FLIGHT)).toBeGreaterThanOrEqual(reserve)
      await applyMovement(db, store, {
        userId: u.userId,
        amountMicros: credit,
        kind: 'adjustment',
        method: 'test',
        reference: `test:${u.userId}`,
      })
      const release = holdNext(IN_FLIGHT)
      const seen = up.seen.length
      const calls = Array.from({ length: IN_FLIGHT }, () => postChat(gw, u.key))
      await until(() => up.seen.length === seen + IN_FLIGHT, 'the calls at the upstream')
      expect(await reservedNow(gw, u.userId)).toBe(reserve * BigInt(IN_FLIGHT))
      await redis.kill()
      const direct = rescue.counters.writtenDirect
      release()
      const answered = await Promise.all(calls)
      for (const res of answered) expect(res.status).toBe(200)
      await gw.runtime.deps.inflight.settled()
      expect(rescue.counters.writtenDirect - direct).toBe(IN_FLIGHT)
      expect(rescue.spooled).toBeGreaterThanOrEqual(IN_FLIGHT) // their mirror drops wait for Redis

      await redis.start(true) // AOF: the mirror is back with the ten reservations
      const billed = answered.map((r) => ({ requestId: r.headers.get('x-request-id')!, cost: COST }))
      // At once, not waiting for the spool's retry: only Redis's reconnect may answer 503 first.
      let next: Response | undefined
      await until(async () => (next = await postChat(gw, u.key)).status !== 503, 'an answer other than 503 after Redis returned')
      expect({ round, status: next!.status }).toEqual({ round, status: 200 })
      billed.push({ requestId: next!.headers.get('x-request-id')!, cost: COST })
      await gw.settled()
      await expectExactBooks(gw, u.userId, credit, billed)
      expect(await reservedNow(gw, u.userId)).toBe(0n)
      expect((await store.account(u.userId))?.balanceMicros).toBe(credit - COST * BigInt(IN_FLIGHT + 1))
      await until(() => rescue.spooled === 0, 'the spool empty')
    }
  }, 120_000)
})

for (const backends of ALL_BACKENDS) {
  describe(`settle round trip fails on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    let realSettle: (i: SettleInput) => Promise<boolean>
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: ANSWER })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]))
      realSettle = gw.runtime.deps.store.settle.bind(gw.runtime.deps.store)
    }, 30_000)
    afterAll(async () => {
      gw.runtime.deps.store.settle = realSettle
      await gw.stop()
      up.stop()
    })

    for (const ran of [true, false]) {
      test(ran
        ? 'the settle ran but its reply was lost: billed once, not twice'
        : 'the settle never ran: billed once, reservation released', async () => {
        const u = await gw.user(1)
        const { store, rescue } = gw.runtime.deps
        const before = rescue.counters.rescued
        store.settle = async (input) => {
          if (ran) await realSettle(input)
          throw new Error('connection lost')
        }
        const billed: { requestId: string; cost: bigint }[] = []
        try {
          for (let i = 0; i < 3; i++) {
            const res = await postChat(gw, u.key)
            expect(res.status).toBe(200)
            billed.push({ requestId: res.headers.get('x-request-id')!, cost: COST })
          }
          await gw.runtime.deps.inflight.settled()
        } finally {
          store.settle = realSettle
        }
        expect(rescue.counters.rescued - before).toBe(3)
        expect(rescue.spooled).toBe(0)
        expect(await store.account(u.userId)).toBeUndefined() // mirror dropped
        const next = await postChat(gw, u.key)
        expect(next.status).toBe(200)
        billed.push({ requestId: next.headers.get('x-request-id')!, cost: COST })
        await gw.settled()
        await expectExactBooks(gw, u.userId, CREDIT, billed)
        expect(await reservedNow(gw, u.userId)).toBe(0n)
        expect((await store.account(u.userId))?.balanceMicros).toBe(CREDIT - COST * 4n)
      }, 60_000)
    }
  })
}
