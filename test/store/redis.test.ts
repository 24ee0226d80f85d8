// The Redis store on a real Redis: the upkeep contract, and what is Redis's own — the key layout
// it writes (keys.ts), recreating the outbox groups after Redis lost them (NOGROUP), and reading
// an account's outbox across more than one page.
import { afterAll, describe, expect, test } from 'bun:test'
import Redis from 'ioredis'
import { accountKey, outboxKey, releasedKey } from '../../src/store/keys.ts'
import { ABANDONED_MARK_MS } from '../../src/store/lease.ts'
import { createRedisStore } from '../../src/store/redis.ts'
import { shardOf } from '../../src/store/types.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'
import { upkeepContract } from './upkeep-contract.ts'

if (SERVICES) {
  const keys = freshKeyPrefix()
  afterAll(() => keys.clear())
  const space = () => ({ prefix: `${keys.prefix}${crypto.randomUUID().slice(0, 8)}:`, shards: 4 })

  upkeepContract('redis', async () => {
    const store = await createRedisStore(REDIS_URL, space())
    return { store, done: () => store.close() }
  })

  describe('Redis store', () => {
    const raw = new Redis(REDIS_URL)
    afterAll(() => raw.disconnect())

    test('an account lives in its shard’s hash tag as balance and reserved fields', async () => {
      const ks = space()
      const store = await createRedisStore(REDIS_URL, ks)
      try {
        expect(store.kind).toBe('redis')
        await store.loadAccount('usr_layout', 'key_layout', 4_200n, 0n)
        const key = accountKey(ks, shardOf('usr_layout', ks.shards), 'usr_layout')
        expect(await raw.hget(key, 'balance')).toBe('4200')
        await store.adjustBalance('usr_layout', -200n)
        expect(await raw.hget(key, 'balance')).toBe('4000')
        expect(await store.account('usr_layout')).toEqual({ balanceMicros: 4_000n, reservedMicros: 0n })
      } finally {
        await store.close()
      }
    })

    test('after Redis lost the outbox groups, repairOutbox makes the outbox readable again', async () => {
      const ks = space()
      const store = await createRedisStore(REDIS_URL, ks)
      try {
        for (let s = 0; s < ks.shards; s++) await raw.del(outboxKey(ks, s))
        await expect(store.readOutbox('w', 10, 0)).rejects.toThrow(/NOGROUP/)
        await store.repairOutbox()
        await store.appendOutbox('usr_repair', '{"ok":1}')
        expect((await store.readOutbox('w', 10, 0)).map((e) => e.record)).toEqual(['{"ok":1}'])
      } finally {
        await store.close()
      }
    })

    test('outboxCalls reads past one page (500 records) and reports the last id read', async () => {
      const ks = space()
      const store = await createRedisStore(REDIS_URL, ks)
      try {
        const userId = 'usr_paged'
        const stream = outboxKey(ks, shardOf(userId, ks.shards))
        const p = raw.pipeline()
        for (let i = 0; i < 620; i++)
          p.xadd(stream, '*', 'r', JSON.stringify({ requestId: `req_${i}`, userId, keyId: 'key_p', cost: String(i % 3) }))
        await p.exec()
        const { calls, through } = await store.outboxCalls(userId)
        // cost 0 records bill nothing and are left out
        expect(calls).toHaveLength(620 - Math.ceil(620 / 3))
        expect(calls.reduce((sum, c) => sum + c.costMicros, 0n)).toBe(BigInt([...Array(620).keys()].reduce((s, i) => s + (i % 3), 0)))
        const [last] = await raw.xrevrange(stream, '+', '-', 'COUNT', 1)
        expect(through).toBe(last![0])
      } finally {
        await store.close()
      }
    })

    test('a released lease is remembered in its shard’s one sorted set for a day, then forgotten by a later release', async () => {
      const ks = space()
      const store = await createRedisStore(REDIS_URL, ks)
      try {
        const userId = 'usr_released'
        const s = shardOf(userId, ks.shards)
        await store.loadAccount(userId, 'key_r', 1_000n, 0n)
        const t0 = Date.now()
        const lease = (id: string, deadlineMs: number) => ({ id, deadlineMs, abandonCostMicros: 0n, abandonRecord: '{}' })
        const admit = (id: string, nowMs: number) =>
          store.admit({ userId, keyId: 'key_r', rpm: 10, nowMs, reserveMicros: 1n, keyLimitMicros: null, lease: lease(id, nowMs + 1_000) })
        expect((await admit('req_old', t0)).ok).toBe(true)
        expect(await store.sweepLeases(t0 + 2_000, 10)).toBe(1)
        expect(await raw.zscore(releasedKey(ks, s), 'req_old')).toBe(String(t0 + 2_000))
        const late = t0 + ABANDONED_MARK_MS + 10_000
        expect((await admit('req_new', late)).ok).toBe(true)
        expect(await store.sweepLeases(late + 2_000, 10)).toBe(1)
        expect(await raw.zrange(releasedKey(ks, s), '0', '-1')).toEqual(['req_new'])
      } finally {
        await store.close()
      }
    })

    test("a key's spend and reservations are one field; a reload drops the two fields earlier versions kept", async () => {
      const ks = space()
      const store = await createRedisStore(REDIS_URL, ks)
      try {
        const key = accountKey(ks, shardOf('usr_fields', ks.shards), 'usr_fields')
        await raw.hset(key, 'balance', '1000', 'reserved', '0', 'kspent:key_f', '7', 'kres:key_f', '0')
        // Not mirrored in this version's field: cold, then loaded.
        expect(
          await store.admit({ userId: 'usr_fields', keyId: 'key_f', rpm: 10, nowMs: Date.now(), reserveMicros: 5n, keyLimitMicros: 100n }),
        ).toEqual({
          ok: false,
          reason: 'cold',
        })
        await store.loadAccount('usr_fields', 'key_f', 1_000n, 40n)
        expect(await raw.hgetall(key)).toEqual({ balance: '1000', reserved: '0', 'key:key_f': '40' })
        expect(
          (await store.admit({ userId: 'usr_fields', keyId: 'key_f', rpm: 10, nowMs: Date.now(), reserveMicros: 5n, keyLimitMicros: 100n }))
            .ok,
        ).toBe(true)
        expect(await raw.hget(key, 'key:key_f')).toBe('45')
        await store.settle({ userId: 'usr_fields', keyId: 'key_f', reservedMicros: 5n, costMicros: 3n, record: '{}' })
        expect(await raw.hgetall(key)).toEqual({ balance: '997', reserved: '0', 'key:key_f': '43' })
      } finally {
        await store.close()
      }
    })

    test('two stores of different prefixes share nothing', async () => {
      const a = await createRedisStore(REDIS_URL, space())
      const b = await createRedisStore(REDIS_URL, space())
      try {
        await a.loadAccount('usr_shared', 'k', 10n, 0n)
        await a.appendOutbox('usr_shared', '{}')
        expect(await b.account('usr_shared')).toBeUndefined()
        expect((await b.outboxStats()).depth).toBe(0)
      } finally {
        await a.close()
        await b.close()
      }
    })
  })
}
