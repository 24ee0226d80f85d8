// The outbox on Redis streams, one per shard and one consumer group: what is read is handed to
// one consumer; acknowledged entries are gone; a dead consumer's are reclaimed; a waiting read
// returns what is appended meanwhile.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Redis from 'ioredis'
import {
  ackShards,
  createGroups,
  defineOutboxScripts,
  GROUP,
  type OutboxClient,
  ownPendingShards,
  readShards,
  reclaimShards,
} from '../../src/store/redis-outbox.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'

if (SERVICES)
  describe('Redis outbox streams', () => {
    const keys = freshKeyPrefix()
    const redis = new Redis(REDIS_URL)
    let acking: OutboxClient
    beforeAll(async () => {
      acking = await defineOutboxScripts(redis)
    })
    afterAll(async () => {
      redis.disconnect()
      await keys.clear()
    })
    const streams = async (n = 3) => {
      const id = crypto.randomUUID().slice(0, 8)
      const s = Array.from({ length: n }, (_, i) => `${keys.prefix}{s${i}}:outbox:${id}`)
      await createGroups(redis, s)
      return s
    }
    const append = (stream: string, record: string) => redis.xadd(stream, '*', 'r', record)

    test('createGroups is idempotent (BUSYGROUP is not an error)', async () => {
      const s = await streams(2)
      await createGroups(redis, s)
      const groups = (await redis.xinfo('GROUPS', s[0]!)) as unknown[][]
      expect(groups).toHaveLength(1)
      expect(groups[0]).toContain(GROUP)
    })

    test('one read takes every shard’s new entries, each tagged with its shard; a second read gets nothing', async () => {
      const s = await streams()
      await append(s[0]!, 'a')
      await append(s[2]!, 'c')
      await append(s[2]!, 'd')
      const got = await readShards(redis, s, 'w1', 10, 0)
      expect(got.map((e) => [e.shard, e.record]).sort()).toEqual([
        [0, 'a'],
        [2, 'c'],
        [2, 'd'],
      ])
      expect(await readShards(redis, s, 'w2', 10, 0)).toEqual([])
    })

    test('max bounds each shard’s read', async () => {
      const s = await streams(2)
      for (const r of ['1', '2', '3']) await append(s[0]!, r)
      for (const r of ['x', 'y', 'z']) await append(s[1]!, r)
      const got = await readShards(redis, s, 'w', 2, 0)
      expect(got.map((e) => e.record).sort()).toEqual(['1', '2', 'x', 'y'])
    })

    test('acknowledged entries leave the stream; the rest stay pending for their consumer only', async () => {
      const s = await streams(2)
      await append(s[0]!, 'keep')
      await append(s[1]!, 'done')
      const got = await readShards(redis, s, 'w1', 10, 0)
      await ackShards(
        acking,
        s,
        got.filter((e) => e.record === 'done'),
      )
      expect(await redis.xlen(s[1]!)).toBe(0)
      expect((await ownPendingShards(redis, s, 'w1', 10)).map((e) => e.record)).toEqual(['keep'])
      expect(await ownPendingShards(redis, s, 'w2', 10)).toEqual([])
    })

    test('an acknowledgement takes off only what was acknowledged: entries not yet read and another writer’s pending ones stay', async () => {
      const [s] = await streams(1)
      for (const r of ['1', '2', '3', '4']) await append(s!, r)
      const w1 = await readShards(redis, [s!], 'w1', 2, 0)
      const w2 = await readShards(redis, [s!], 'w2', 1, 0)
      await append(s!, '5')
      // w2 acknowledges 3 while w1 still holds 1 and 2: 3 leaves, nothing else does.
      await ackShards(acking, [s!], w2)
      expect((await redis.xrange(s!, '-', '+')).map(([, f]) => f[1])).toEqual(['1', '2', '4', '5'])
      await ackShards(acking, [s!], w1.slice(0, 1))
      expect((await redis.xrange(s!, '-', '+')).map(([, f]) => f[1])).toEqual(['2', '4', '5'])
      expect((await ownPendingShards(redis, [s!], 'w1', 10)).map((e) => e.record)).toEqual(['2'])
      await ackShards(acking, [s!], w1.slice(1))
      // Nothing pending: what was delivered is gone, what was not is read next.
      expect((await redis.xrange(s!, '-', '+')).map(([, f]) => f[1])).toEqual(['4', '5'])
      const rest = await readShards(redis, [s!], 'w1', 10, 0)
      expect(rest.map((e) => e.record)).toEqual(['4', '5'])
      await ackShards(acking, [s!], rest)
      expect(await redis.xlen(s!)).toBe(0)
    })

    test('reclaim moves entries idle long enough to the new consumer', async () => {
      const s = await streams(1)
      await append(s[0]!, 'orphan')
      await readShards(redis, s, 'dead', 10, 0)
      expect(await reclaimShards(redis, s, 'live', 60_000, 10)).toEqual([])
      await Bun.sleep(20)
      expect((await reclaimShards(redis, s, 'live', 10, 10)).map((e) => e.record)).toEqual(['orphan'])
      expect((await ownPendingShards(redis, s, 'live', 10)).map((e) => e.record)).toEqual(['orphan'])
      expect(await ownPendingShards(redis, s, 'dead', 10)).toEqual([])
    })

    test('a waiting read returns an entry appended while it waits', async () => {
      const s = await streams(2)
      const read = readShards(redis, s, 'w', 10, 5_000)
      await Bun.sleep(30)
      await append(s[1]!, 'late')
      expect((await read).map((e) => [e.shard, e.record])).toEqual([[1, 'late']])
    })

    test('a waiting read with nothing arriving returns [] after about blockMs', async () => {
      const s = await streams(1)
      const started = Date.now()
      expect(await readShards(redis, s, 'w', 10, 120)).toEqual([])
      expect(Date.now() - started).toBeGreaterThanOrEqual(100)
    })
  })
