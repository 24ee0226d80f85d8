// Store on Redis: each hot-path operation is one EVALSHA of a versioned script in ./lua.
import { ensureTracingChannelHasSubscribers } from '../lib/tracing-channel-compat.ts'
import { accountKey, counterKey, outboxKey, windowKey, type KeySpace } from './keys.ts'
import { connectRedis, type RedisClient, type RedisTarget } from './redis-client.ts'
import { ackShards, createGroups, readShards, reclaimShards } from './redis-outbox.ts'
import { WINDOW_MS, shardOf, windowOf, type AccountState, type AdmitInput, type AdmitResult, type SettleInput, type Store } from './types.ts'

const script = (name: string) => Bun.file(new URL(`./lua/${name}.lua`, import.meta.url)).text()

type Scripted = RedisClient & {
  tgAdmit(k1: string, k2: string, keyId: string, rpm: number, reserve: string, limit: string, ttl: number): Promise<[number, number]>
  tgSettle(k1: string, k2: string, keyId: string, reserved: string, cost: string, record: string): Promise<number>
  tgLoad(k1: string, keyId: string, balance: string, spent: string): Promise<number>
  tgAdjust(k1: string, delta: string): Promise<number>
  tgHit(k1: string, limit: number, ttl: number): Promise<[number, number]>
}

/** `target`: a redis:// URL, or { cluster: seed node URLs } for a Redis/Valkey Cluster (redis-client.ts). */
export async function createRedisStore(target: RedisTarget, keySpace: KeySpace = { prefix: 'tg:', shards: 16 }): Promise<Store> {
  ensureTracingChannelHasSubscribers()
  const redis = (await connectRedis(target, { maxRetriesPerRequest: 2, enableAutoPipelining: true })) as Scripted
  redis.defineCommand('tgAdmit', { numberOfKeys: 2, lua: await script('admit') })
  redis.defineCommand('tgSettle', { numberOfKeys: 2, lua: await script('settle') })
  redis.defineCommand('tgLoad', { numberOfKeys: 1, lua: await script('load') })
  redis.defineCommand('tgAdjust', { numberOfKeys: 1, lua: await script('adjust') })
  redis.defineCommand('tgHit', { numberOfKeys: 1, lua: await script('hit') })

  const outboxes = Array.from({ length: keySpace.shards }, (_, s) => outboxKey(keySpace, s))
  await createGroups(redis, outboxes)
  const acct = (userId: string) => accountKey(keySpace, shardOf(userId, keySpace.shards), userId)

  return {
    kind: 'redis',
    async admit(input: AdmitInput): Promise<AdmitResult> {
      const shard = shardOf(input.userId, keySpace.shards)
      const { index, resetMs } = windowOf(input.nowMs)
      const [status, count] = await redis.tgAdmit(
        accountKey(keySpace, shard, input.userId),
        windowKey(keySpace, shard, input.keyId, index),
        input.keyId,
        input.rpm,
        input.reserveMicros.toString(),
        (input.keyLimitMicros ?? -1n).toString(),
        WINDOW_MS + 1_000,
      )
      const rate = { limit: input.rpm, remaining: Math.max(0, input.rpm - count), resetMs }
      if (status === 1) return { ok: true, rate }
      if (status === 0) return { ok: false, reason: 'rate', rate: { ...rate, remaining: 0 } }
      if (status === -1) return { ok: false, reason: 'cold' }
      return { ok: false, reason: status === -2 ? 'balance' : 'key_limit', rate }
    },
    async loadAccount(userId, keyId, balanceMicros, keySpentMicros) {
      await redis.tgLoad(acct(userId), keyId, balanceMicros.toString(), keySpentMicros.toString())
    },
    async settle(input: SettleInput) {
      const shard = shardOf(input.userId, keySpace.shards)
      await redis.tgSettle(
        accountKey(keySpace, shard, input.userId),
        outboxKey(keySpace, shard),
        input.keyId,
        input.reservedMicros.toString(),
        input.costMicros.toString(),
        input.record,
      )
    },
    async appendOutbox(userId, record) {
      await redis.xadd(outboxKey(keySpace, shardOf(userId, keySpace.shards)), '*', 'r', record)
    },
    async adjustBalance(userId, deltaMicros) {
      await redis.tgAdjust(acct(userId), deltaMicros.toString())
    },
    async account(userId): Promise<AccountState | undefined> {
      const [balance, reserved] = await redis.hmget(acct(userId), 'balance', 'reserved')
      if (balance == null) return undefined
      return { balanceMicros: BigInt(balance), reservedMicros: BigInt(reserved ?? '0') }
    },
    async forgetAccount(userId) {
      await redis.del(acct(userId))
    },
    readOutbox: (consumer, max, blockMs) => readShards(redis, outboxes, consumer, max, blockMs),
    async ackOutbox(entries) {
      if (entries.length > 0) await ackShards(redis, outboxes, entries)
    },
    reclaimOutbox: (consumer, minIdleMs, max) => reclaimShards(redis, outboxes, consumer, minIdleMs, max),
    async hit(bucket, limit, windowMs, nowMs) {
      const { index, resetMs } = windowOf(nowMs, windowMs)
      const [ok, count] = await redis.tgHit(counterKey(keySpace, bucket, index), limit, windowMs + 1_000)
      return { ok: ok === 1, rate: { limit, remaining: Math.max(0, limit - count), resetMs } }
    },
    async ping() {
      await redis.ping()
    },
    async close() {
      await redis.quit()
    },
  }
}
