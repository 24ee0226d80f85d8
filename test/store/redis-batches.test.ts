// Admissions and settlements of one shard share script calls (src/store/turn-batch.ts), and one
// outbox read covers every shard (src/store/redis-outbox.ts): on a Redis of its own (port 6396),
// so the commands counted are this test's alone.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { accountKey } from '../../src/store/keys.ts'
import { createRedisStore } from '../../src/store/redis.ts'
import { shardOf, type AdmitInput, type Store } from '../../src/store/types.ts'
import { startThrowawayRedis, type ThrowawayRedis } from '../helpers/redis-server.ts'
import { SERVICES } from '../helpers/services.ts'

const NOW = Date.UTC(2026, 0, 1, 12, 0, 30)
const keySpace = { prefix: 'tgbatch:', shards: 1 }

describe.if(SERVICES)('Redis store: calls of one turn share a script call', () => {
  let redis: ThrowawayRedis
  let store: Store
  beforeAll(async () => {
    redis = await startThrowawayRedis(6396, { aof: false })
    store = await createRedisStore(redis.url, keySpace)
  })
  afterAll(async () => {
    await store?.close()
    await redis?.stop()
  })

  /** Calls of each named command answered so far. */
  const commandCalls = async (...cmds: string[]) => {
    const r = redis.client()
    const stats = await r.info('commandstats')
    r.disconnect()
    return cmds.reduce((sum, cmd) => sum + Number(stats.match(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`))?.[1] ?? 0), 0)
  }
  /** Script calls answered so far (EVAL counts: a script's first call after a start loads it). */
  const scriptCalls = () => commandCalls('evalsha', 'eval')
  const admitOf = (userId: string, o: Partial<AdmitInput> = {}): AdmitInput => ({
    userId,
    keyId: `${userId}_key`,
    rpm: 100,
    nowMs: NOW,
    reserveMicros: 10n,
    keyLimitMicros: null,
    ...o,
  })

  test('each admission of a batch gets its own answer, in order; a failing one fails alone', async () => {
    await store.loadAccount('funded', 'funded_key', 1_000n, 0n)
    await store.loadAccount('poor', 'poor_key', 5n, 0n)
    await store.loadAccount('busy', 'busy_key', 1_000n, 0n)
    expect((await store.admit(admitOf('busy', { rpm: 1 }))).ok).toBe(true)
    await store.loadAccount('broken', 'broken_key', 1_000n, 0n)
    const r = redis.client()
    await r.hset(accountKey(keySpace, 0, 'broken'), 'balance', 'not a number')
    r.disconnect()

    const before = await scriptCalls()
    const results = await Promise.allSettled([
      store.admit(admitOf('funded')),
      store.admit(admitOf('cold')),
      store.admit(admitOf('poor')),
      store.admit(admitOf('busy', { rpm: 1 })),
      store.admit(admitOf('broken')),
      store.admit(admitOf('funded')),
    ])
    // The first found the batcher idle and went alone; the five after it went together.
    expect((await scriptCalls()) - before).toBe(2)
    const answers = results.map((x) => (x.status === 'fulfilled' ? (x.value.ok ? 'ok' : x.value.reason) : 'error'))
    expect(answers).toEqual(['ok', 'cold', 'balance', 'rate', 'error', 'ok'])
    expect(String((results[4] as PromiseRejectedResult).reason)).toContain('admit')
    expect((await store.account('funded'))?.reservedMicros).toBe(20n)
    expect((await store.account('poor'))?.reservedMicros).toBe(0n)
    expect((await store.account('busy'))?.reservedMicros).toBe(10n)
  })

  test('a refused admission and one whose step fails leave the request window as they found it', async () => {
    await store.loadAccount('counted', 'counted_key', 15n, 0n)
    const window = async () => {
      const r = redis.client()
      const keys = await r.keys(`${keySpace.prefix}*rl:counted_key:*`)
      const n = keys.length === 0 ? 0 : Number(await r.get(keys[0]!))
      r.disconnect()
      return n
    }
    expect((await store.admit(admitOf('counted', { rpm: 2 }))).ok).toBe(true)
    expect(await window()).toBe(1)
    // Balance short (5 of 15 left), then a broken account: neither counts.
    expect(await store.admit(admitOf('counted', { rpm: 2 }))).toMatchObject({ ok: false, reason: 'balance' })
    const r = redis.client()
    await r.hset(accountKey(keySpace, 0, 'counted'), 'reserved', 'garbage')
    await expect(store.admit(admitOf('counted', { rpm: 2 }))).rejects.toThrow('admit')
    await r.hset(accountKey(keySpace, 0, 'counted'), 'reserved', '0')
    r.disconnect()
    expect(await window()).toBe(1)
    // The window's second call is admitted and answers its count; the third is refused at 2.
    const second = await store.admit(admitOf('counted', { rpm: 2 }))
    expect(second).toMatchObject({ ok: true, rate: { limit: 2, remaining: 0 } })
    expect(await store.admit(admitOf('counted', { rpm: 2 }))).toMatchObject({ ok: false, reason: 'rate', rate: { remaining: 0 } })
    expect(await window()).toBe(2)
  })

  test('an admission of a key without tpm reads nothing before it counts: INCR, HMGET and its writes', async () => {
    await store.loadAccount('lean', 'lean_key', 1_000n, 0n)
    const reads = () => commandCalls('get')
    const before = await reads()
    const lease = { id: 'req_lean', deadlineMs: NOW + 60_000, abandonCostMicros: 1n, abandonRecord: '{}' }
    expect((await store.admit(admitOf('lean', { lease }))).ok).toBe(true)
    expect((await reads()) - before).toBe(0)
  })

  test('a batch mixing keys with and without tpm or maxConcurrent answers each by its own limits', async () => {
    await store.loadAccount('mixed', 'mixed_key', 1_000n, 0n)
    await store.loadAccount('plain', 'plain_key', 1_000n, 0n)
    const lease = (id: string) => ({ id, deadlineMs: NOW + 60_000, abandonCostMicros: 1n, abandonRecord: '{}' })
    const before = await scriptCalls()
    const results = await Promise.all([
      store.admit(admitOf('plain')),
      store.admit(admitOf('mixed', { tpm: 100, tokens: 60, maxConcurrent: 1, lease: lease('req_m1') })),
      store.admit(admitOf('plain', { rpm: 2 })),
      store.admit(admitOf('mixed', { tpm: 100, tokens: 60, lease: lease('req_m2') })),
      store.admit(admitOf('mixed', { maxConcurrent: 1, lease: lease('req_m3') })),
      store.admit(admitOf('plain', { rpm: 2 })),
      store.admit(admitOf('mixed', { tpm: 100, tokens: 40, lease: lease('req_m4') })),
    ])
    expect((await scriptCalls()) - before).toBe(2)
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['ok', 'ok', 'ok', 'tpm', 'concurrency', 'rate', 'ok'])
    expect(results[6]).toMatchObject({ ok: true, tokens: { limit: 100, remaining: 0 } })
    expect((await store.account('mixed'))?.reservedMicros).toBe(20n)
    expect((await store.account('plain'))?.reservedMicros).toBe(20n)
  })

  test('admissions of one turn never over-reserve: a balance of 10 reservations admits 5 of 40 at once', async () => {
    await store.loadAccount('tight', 'tight_key', 100n, 0n)
    const before = await scriptCalls()
    const results = await Promise.all(Array.from({ length: 40 }, () => store.admit(admitOf('tight'))))
    expect((await scriptCalls()) - before).toBeLessThan(40)
    // Each call in flight is covered twice (docs/operations.md "Overdraft"): 100 − 2 × 40 ≥ 10 is the last.
    expect(results.filter((x) => x.ok)).toHaveLength(5)
    expect((await store.account('tight'))?.reservedMicros).toBe(50n)
  })

  test('settlements of one turn go in one call, each applied once', async () => {
    await store.loadAccount('payer', 'payer_key', 1_000n, 0n)
    for (let i = 0; i < 3; i++) expect((await store.admit(admitOf('payer'))).ok).toBe(true)
    const before = await scriptCalls()
    const settle = (i: number) =>
      store.settle({ userId: 'payer', keyId: 'payer_key', reservedMicros: 10n, costMicros: 7n, record: `{"n":${i}}` })
    expect(await Promise.all([settle(1), settle(2), settle(3)])).toEqual([true, true, true])
    expect((await scriptCalls()) - before).toBe(1)
    const account = await store.account('payer')
    expect(account?.reservedMicros).toBe(0n)
    expect(account?.balanceMicros).toBe(1_000n - 21n)
  })

  test('a settlement that fails in Redis fails alone: the others of its batch are settled', async () => {
    for (const u of ['s1', 's3']) {
      await store.loadAccount(u, `${u}_key`, 1_000n, 0n)
      expect((await store.admit(admitOf(u))).ok).toBe(true)
    }
    await store.loadAccount('s2', 's2_key', 1_000n, 0n)
    expect((await store.admit(admitOf('s2'))).ok).toBe(true)
    // A corrupt mirror: HINCRBY on it is refused inside the script.
    const r = redis.client()
    await r.hset(accountKey(keySpace, 0, 's2'), 'balance', 'not a number')
    r.disconnect()
    const before = await scriptCalls()
    const settle = (u: string) =>
      store.settle({ userId: u, keyId: `${u}_key`, reservedMicros: 10n, costMicros: 7n, record: `{"u":"${u}"}` })
    const results = await Promise.allSettled([settle('s1'), settle('s2'), settle('s3')])
    expect((await scriptCalls()) - before).toBe(1)
    expect(results.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain('settle')
    for (const u of ['s1', 's3']) {
      const account = await store.account(u)
      expect([account?.reservedMicros, account?.balanceMicros]).toEqual([0n, 993n])
    }
  })

  test('on a single Redis the admissions and settlements of one turn share one script call across shards, each answered as its own', async () => {
    const shards = 16
    const sharded = await createRedisStore(redis.url, { prefix: 'tgbatchx:', shards })
    try {
      // Two accounts on each of three shards, interleaved, plus one that is cold.
      const users = Array.from({ length: 40 }, (_, i) => `usr_x${i}`)
      const firstShards = [...new Set(users.map((u) => shardOf(u, shards)))].slice(0, 3)
      const picked = firstShards.flatMap((s) => users.filter((u) => shardOf(u, shards) === s).slice(0, 2))
      expect(picked).toHaveLength(6)
      for (const u of picked) await sharded.loadAccount(u, `${u}_key`, u === picked[4] ? 5n : 1_000n, 0n)
      const order = [picked[0]!, picked[2]!, picked[4]!, picked[1]!, picked[3]!, picked[5]!, 'usr_cold_x']
      const lease = (u: string) => ({ id: `req_${u}`, deadlineMs: NOW + 60_000, abandonCostMicros: 1n, abandonRecord: '{}' })
      const admitBefore = await scriptCalls()
      const admitted = await Promise.all(order.map((u) => sharded.admit(admitOf(u, { lease: lease(u) }))))
      // The first went alone (eager), the six after it together.
      expect((await scriptCalls()) - admitBefore).toBe(2)
      expect(admitted.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['ok', 'ok', 'balance', 'ok', 'ok', 'ok', 'cold'])
      const settling = order.filter((_, i) => admitted[i]!.ok)
      const settleBefore = await scriptCalls()
      const settled = await Promise.all(
        settling.map((u, i) =>
          sharded.settle({
            userId: u,
            keyId: `${u}_key`,
            reservedMicros: 10n,
            costMicros: BigInt(i + 1),
            record: '{}',
            leaseId: `req_${u}`,
          }),
        ),
      )
      expect((await scriptCalls()) - settleBefore).toBe(1)
      expect(settled).toEqual([true, true, true, true, true])
      for (const [i, u] of settling.entries())
        expect(await sharded.account(u)).toEqual({ balanceMicros: 1_000n - BigInt(i + 1), reservedMicros: 0n })
      expect(await sharded.account(picked[4]!)).toEqual({ balanceMicros: 5n, reservedMicros: 0n })
    } finally {
      await sharded.close()
    }
  })

  test("one XREADGROUP reads every shard's outbox on a single Redis, new entries and a consumer's pending ones alike", async () => {
    const shards = 16
    const sharded = await createRedisStore(redis.url, { prefix: 'tgbatch16:', shards })
    try {
      // Accounts on three different shards.
      const users = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((x) => `usr_${x}`)
      const picked = users.filter((u, i) => users.findIndex((v) => shardOf(v, shards) === shardOf(u, shards)) === i).slice(0, 3)
      expect(picked).toHaveLength(3)
      for (const u of picked) await sharded.appendOutbox(u, `{"u":"${u}"}`)
      const before = await commandCalls('xreadgroup')
      const read = await sharded.readOutbox('w1', 10, 0)
      expect((await commandCalls('xreadgroup')) - before).toBe(1)
      expect(read.map((e) => [e.record, e.shard]).sort()).toEqual(picked.map((u) => [`{"u":"${u}"}`, shardOf(u, shards)]).sort())
      // Not acknowledged: the consumer's pending read finds them again, in one command.
      const pendingBefore = await commandCalls('xreadgroup')
      expect((await sharded.ownPendingOutbox('w1', 10)).map((e) => e.id).sort()).toEqual(read.map((e) => e.id).sort())
      expect((await commandCalls('xreadgroup')) - pendingBefore).toBe(1)
      await sharded.ackOutbox(read)
      expect(await sharded.ownPendingOutbox('w1', 10)).toEqual([])
      expect(await sharded.readOutbox('w1', 10, 0)).toEqual([])
    } finally {
      await sharded.close()
    }
  })
})
