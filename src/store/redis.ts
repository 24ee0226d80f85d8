// Store on Redis: each hot-path operation is one EVALSHA of a versioned script in ./lua.
import { ensureTracingChannelHasSubscribers } from '../lib/tracing-channel-compat.ts'
import {
  accountKey,
  counterKey,
  inFlightKey,
  keyField,
  leaseDataKey,
  leasesKey,
  outboxKey,
  releasedKey,
  tokenWindowKey,
  windowKey,
  type KeySpace,
} from './keys.ts'
import { ABANDONED_MARK_MS, leaseData } from './lease.ts'
import { readAppendOnly } from './append-only.ts'
import { connectRedis, type RedisClient, type RedisTarget } from './redis-client.ts'
import { ackShards, createGroups, defineOutboxScripts, ownPendingShards, readShards, reclaimShards } from './redis-outbox.ts'
import { outboxCallOf } from './outbox-call.ts'
import { admitResult } from './admit-result.ts'
import { byShard, inIssuedOrder } from './shard-groups.ts'
import { TurnBatch } from './turn-batch.ts'
import {
  WINDOW_TTL_MS,
  shardOf,
  windowOf,
  type AccountState,
  type AdmitInput,
  type AdmitResult,
  type OutboxCall,
  type SettleInput,
  type Store,
} from './types.ts'

/** Most calls in one script call (turn-batch.ts): an admission brings 2 keys and 8 arguments (4 and 12 with tpm or maxConcurrent), a settlement 1 and 7 (2 with tokens to give back); each shard of the call 2 to 4 keys more. */
const ADMIT_BATCH_MAX = 64
const SETTLE_BATCH_MAX = 64
const WINDOW_TTL = String(WINDOW_TTL_MS)
/** Below every stream id: an outbox read from the start. */
const NO_ENTRY = '0-0'
const OUTBOX_PAGE = 500

const script = (name: string) => Bun.file(new URL(`./lua/${name}.lua`, import.meta.url)).text()

type Scripted = RedisClient & {
  tgAdmit(keys: number, ...args: string[]): Promise<(number | string)[]>
  tgSettle(keys: number, ...args: string[]): Promise<(number | string)[]>
  tgRelease(...args: [string, string, string, string, string, string, number, number]): Promise<number>
  tgRenew(k1: string, id: string, deadline: number): Promise<number>
  tgLoad(...args: [string, string, string, string, string, string, string, string, string]): Promise<number>
  tgAdjust(k1: string, delta: string): Promise<number>
  tgHit(k1: string, limit: number, ttl: number): Promise<[number, number]>
}

/**
 * The hot path's connection fails fast instead of queueing (docs/operations.md "Redis
 * unreachable"): no offline queue (a command while disconnected rejects at once), a bound on
 * each command, no replay of unanswered commands after a reconnect (a replayed admit would
 * reserve for a client already answered 503; a replayed settle would move the mirror twice),
 * and reconnect attempts at most 500 ms apart so service resumes within a second of Redis.
 */
const hotPathOptions = (commandTimeoutMs: number) => ({
  lazyConnect: true,
  enableAutoPipelining: true,
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 0,
  commandTimeout: commandTimeoutMs,
  connectTimeout: Math.max(1_000, commandTimeoutMs),
  retryStrategy: (times: number) => Math.min(50 * times, 500),
})

/** `target`: a redis:// URL, or { cluster: seed node URLs } for a Redis/Valkey Cluster (redis-client.ts). */
export async function createRedisStore(
  target: RedisTarget,
  keySpace: KeySpace = { prefix: 'tg:', shards: 16 },
  commandTimeoutMs = 1_500,
): Promise<Store> {
  ensureTracingChannelHasSubscribers()
  const redis = (await connectRedis(target, hotPathOptions(commandTimeoutMs))) as Scripted
  // The number of keys of these two varies with the batch: given on each call (turn-batch.ts).
  redis.defineCommand('tgAdmit', { lua: await script('admit') })
  redis.defineCommand('tgSettle', { lua: await script('settle') })
  redis.defineCommand('tgRelease', { numberOfKeys: 5, lua: await script('release') })
  redis.defineCommand('tgRenew', { numberOfKeys: 1, lua: await script('renew') })
  redis.defineCommand('tgLoad', { numberOfKeys: 3, lua: await script('load') })
  redis.defineCommand('tgAdjust', { numberOfKeys: 1, lua: await script('adjust') })
  redis.defineCommand('tgHit', { numberOfKeys: 1, lua: await script('hit') })
  const outbox = await defineOutboxScripts(redis)

  const outboxes = Array.from({ length: keySpace.shards }, (_, s) => outboxKey(keySpace, s))
  // Created at start and again by the ledger writer when Redis lost them (NOGROUP).
  const ensureGroups = () => createGroups(redis, outboxes)
  await ensureGroups()
  const acct = (userId: string) => accountKey(keySpace, shardOf(userId, keySpace.shards), userId)
  const shardOfInput = (i: { userId: string }) => shardOf(i.userId, keySpace.shards)
  const settleCalls = async (inputs: SettleInput[]) => {
    const keys: string[] = []
    const args: string[] = []
    const groups = byShard(inputs, shardOfInput)
    for (const [s, group] of groups) {
      keys.push(outboxKey(keySpace, s), leasesKey(keySpace, s), leaseDataKey(keySpace, s), releasedKey(keySpace, s))
      args.push(String(group.length))
      for (const i of group.map((at) => inputs[at]!)) {
        const giveBack = String(i.tokens?.giveBack ?? 0)
        keys.push(accountKey(keySpace, s, i.userId))
        // The token window only when there are tokens to give back (settle.lua).
        if (i.tokens && giveBack !== '0') keys.push(tokenWindowKey(keySpace, s, i.keyId, windowOf(i.tokens.nowMs).index))
        args.push(keyField(i.spendKey ?? i.keyId), (-i.reservedMicros).toString(), (-i.costMicros).toString())
        args.push((i.costMicros - i.reservedMicros).toString(), i.record, i.leaseId ?? '', giveBack)
      }
    }
    return inIssuedOrder(groups, await redis.tgSettle(keys.length, ...keys, ...args), 1).map((r) => r[0]!)
  }
  const admitCalls = async (inputs: AdmitInput[]): Promise<[number, number | string, number][]> => {
    const keys: string[] = []
    const args: string[] = [WINDOW_TTL]
    const groups = byShard(inputs, shardOfInput)
    for (const [s, group] of groups) {
      keys.push(leasesKey(keySpace, s), leaseDataKey(keySpace, s))
      args.push(String(group.length))
      for (const i of group.map((at) => inputs[at]!)) {
        const lease = i.lease
        const window = windowOf(i.nowMs).index
        // The token window and the calls in flight are sent only for a key that counts them.
        const limited = i.tpm != null || i.maxConcurrent != null
        keys.push(accountKey(keySpace, s, i.userId), windowKey(keySpace, s, i.keyId, window))
        args.push(
          keyField(i.spendKey ?? i.keyId),
          String(i.rpm),
          i.reserveMicros.toString(),
          (i.keyLimitMicros ?? -1n).toString(),
          lease?.id ?? '',
          String(lease?.deadlineMs ?? 0),
          lease ? leaseData(i, lease) : '',
          limited ? '1' : '0',
        )
        if (!limited) continue
        keys.push(tokenWindowKey(keySpace, s, i.keyId, window), inFlightKey(keySpace, s, i.keyId))
        args.push(String(i.tpm ?? -1), String(i.tokens ?? 0), String(i.maxConcurrent ?? -1), String(i.nowMs))
      }
    }
    const flat = await redis.tgAdmit(keys.length, ...keys, ...args)
    return inIssuedOrder(groups, flat, 3).map((r) => [r[0] as number, r[1]!, r[2] as number])
  }
  /** A transaction that ends these leases of shard `s` unsettled: a late settlement of one moves nothing (keys.ts releasedKey). */
  const released = (s: number, leaseIds: readonly string[]) => {
    const now = Date.now()
    const marks = leaseIds.flatMap((id) => [now, id])
    return redis
      .multi()
      .zrem(leasesKey(keySpace, s), ...leaseIds)
      .hdel(leaseDataKey(keySpace, s), ...leaseIds)
      .zadd(releasedKey(keySpace, s), ...marks)
      .zremrangebyscore(releasedKey(keySpace, s), '-inf', `(${now - ABANDONED_MARK_MS}`)
  }
  // A script call names keys of one slot on a cluster: one batcher per shard there. A single
  // Redis takes every shard's calls of a turn in one script call.
  const batchers = redis.isCluster ? keySpace.shards : 1
  const admits = Array.from({ length: batchers }, () => new TurnBatch(admitCalls, ADMIT_BATCH_MAX, { eager: true }))
  const settles = Array.from({ length: batchers }, () => new TurnBatch(settleCalls, SETTLE_BATCH_MAX))
  const batcherOf = (userId: string) => (batchers === 1 ? 0 : shardOf(userId, keySpace.shards))

  return {
    kind: 'redis',
    async admit(input: AdmitInput): Promise<AdmitResult> {
      const [status, count, used] = await admits[batcherOf(input.userId)]!.add(input)
      // This call's own step failed in Redis (admit.lua); the others of its batch stand.
      if (typeof count !== 'number') throw new Error(`admit: ${count}`)
      return admitResult(input, status, count, used)
    },
    async outboxCalls(userId) {
      // Paged, so a long outbox (Postgres was down) is read without holding Redis up.
      const stream = outboxKey(keySpace, shardOf(userId, keySpace.shards))
      const calls: OutboxCall[] = []
      let through = NO_ENTRY
      for (;;) {
        const page = await redis.xrange(stream, `(${through}`, '+', 'COUNT', OUTBOX_PAGE)
        for (const [id, fields] of page) {
          const call = outboxCallOf(fields[1] ?? '', userId)
          if (call) calls.push(call)
          through = id
        }
        if (page.length < OUTBOX_PAGE) return { calls, through }
      }
    },
    async loadAccount(userId, keyId, balanceMicros, keySpentMicros, outboxThrough = NO_ENTRY, spendKey = keyId) {
      const s = shardOf(userId, keySpace.shards)
      const keys = [accountKey(keySpace, s, userId), outboxKey(keySpace, s), leaseDataKey(keySpace, s)] as const
      await redis.tgLoad(...keys, userId, keyId, balanceMicros.toString(), keySpentMicros.toString(), outboxThrough, spendKey)
    },
    async settle(input: SettleInput) {
      const applied = await settles[batcherOf(input.userId)]!.add(input)
      // This call's own step failed in Redis (settle.lua): it takes the settlement fallback alone.
      if (typeof applied === 'string') throw new Error(`settle: ${applied}`)
      return applied === 1
    },
    async renewLease(userId, leaseId, deadlineMs) {
      return (await redis.tgRenew(leasesKey(keySpace, shardOf(userId, keySpace.shards)), leaseId, deadlineMs)) === 1
    },
    async sweepLeases(nowMs, max) {
      // The expired leases of every shard, asked at once (one command per shard: each names one
      // slot, as a cluster requires); each is then released by one script call that re-checks
      // its deadline (another instance may have settled or swept it).
      const shards = Array.from({ length: keySpace.shards }, (_, s) => s)
      const found = await Promise.all(shards.map((s) => redis.zrangebyscore(leasesKey(keySpace, s), '-inf', nowMs, 'LIMIT', 0, max)))
      let released = 0
      for (const [s, ids] of found.entries()) {
        if (ids.length === 0) continue
        const data = await redis.hmget(leaseDataKey(keySpace, s), ...ids)
        for (const [i, id] of ids.entries()) {
          const userId = data[i]?.split('\t', 1)[0] ?? ''
          const keys = [
            leasesKey(keySpace, s),
            leaseDataKey(keySpace, s),
            accountKey(keySpace, s, userId),
            outboxKey(keySpace, s),
            releasedKey(keySpace, s),
          ] as const
          released += await redis.tgRelease(...keys, id, nowMs, ABANDONED_MARK_MS)
        }
      }
      return released
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
    async accountLeases(userId) {
      const data = await redis.hgetall(leaseDataKey(keySpace, shardOf(userId, keySpace.shards)))
      const prefix = `${userId}\t`
      return Object.entries(data).flatMap(([id, d]) => (d.startsWith(prefix) ? [id] : []))
    },
    async endLeases(userId, leaseIds) {
      if (leaseIds.length === 0) return
      const s = shardOf(userId, keySpace.shards)
      await released(s, leaseIds).del(acct(userId)).exec()
    },
    async forgetAccount(userId, leaseId) {
      if (leaseId === undefined) return void (await redis.del(acct(userId)))
      await released(shardOf(userId, keySpace.shards), [leaseId]).del(acct(userId)).exec()
    },
    readOutbox: (consumer, max, blockMs) => readShards(redis, outboxes, consumer, max, blockMs),
    async ackOutbox(entries) {
      if (entries.length > 0) await ackShards(outbox, outboxes, entries)
    },
    ownPendingOutbox: (consumer, max) => ownPendingShards(redis, outboxes, consumer, max),
    reclaimOutbox: (consumer, minIdleMs, max) => reclaimShards(redis, outboxes, consumer, minIdleMs, max),
    repairOutbox: ensureGroups,
    async hit(bucket, limit, windowMs, nowMs) {
      const { index, resetMs } = windowOf(nowMs, windowMs)
      const [ok, count] = await redis.tgHit(counterKey(keySpace, bucket, index), limit, windowMs + 1_000)
      return { ok: ok === 1, rate: { limit, remaining: Math.max(0, limit - count), resetMs } }
    },
    async outboxStats() {
      // Acknowledged entries are deleted (ackOutbox), so XLEN counts the unwritten ones and the
      // first entry's id is the oldest append time (stream ids are "<ms>-<seq>").
      const replies = await Promise.all(outboxes.map((key) => Promise.all([redis.xlen(key), redis.xrange(key, '-', '+', 'COUNT', 1)])))
      let depth = 0
      let oldestMs: number | null = null
      for (const [len, range] of replies) {
        depth += Number(len)
        const first = range[0]
        if (first) oldestMs = Math.min(oldestMs ?? Infinity, Number(first[0].split('-')[0]))
      }
      return { depth, oldestMs }
    },
    async ping() {
      await redis.ping()
    },
    appendOnly: () => readAppendOnly(redis),
    async close() {
      // While Redis is unreachable QUIT cannot be sent: drop the socket instead.
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
