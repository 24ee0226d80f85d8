// Store on Redis: each hot-path operation is one EVALSHA of a versioned script in ./lua.
import Redis from 'ioredis'
import { ensureTracingChannelHasSubscribers } from '../lib/tracing-channel-compat.ts'
import { abandonedKey, accountKey, counterKey, leaseDataKey, leasesKey, outboxKey, windowKey, type KeySpace } from './keys.ts'
import { ABANDONED_MARK_MS, leaseData } from './lease.ts'
import { WINDOW_MS, shardOf, windowOf, type AccountState, type AdmitInput, type AdmitResult, type OutboxEntry, type SettleInput, type Store } from './types.ts'

const script = (name: string) => Bun.file(new URL(`./lua/${name}.lua`, import.meta.url)).text()

const GROUP = 'ledger-writers'

type Scripted = Redis & {
  tgAdmit(...args: [string, string, string, string, string, number, string, string, number, string, string, string]): Promise<[number, number]>
  tgSettle(...args: [string, string, string, string, string, string, string, string, string, string]): Promise<[number, number]>
  tgRelease(...args: [string, string, string, string, string, string, number, number]): Promise<number>
  tgRenew(k1: string, id: string, deadline: number): Promise<number>
  tgLoad(k1: string, keyId: string, balance: string, spent: string): Promise<number>
  tgAdjust(k1: string, delta: string): Promise<number>
  tgHit(k1: string, limit: number, ttl: number): Promise<[number, number]>
}

type StreamItems = [id: string, fields: string[] | null][]
type StreamReply = unknown

/** XREADGROUP answers [[key, items], …] over RESP2 and a map, flattened to [key, items, …], over RESP3. */
function streamPairs(reply: StreamReply): [string, StreamItems][] {
  if (!Array.isArray(reply) || reply.length === 0) return []
  if (typeof reply[0] === 'string') {
    const pairs: [string, StreamItems][] = []
    for (let i = 0; i + 1 < reply.length; i += 2) pairs.push([reply[i] as string, reply[i + 1] as StreamItems])
    return pairs
  }
  return reply as [string, StreamItems][]
}

/** connect() rejects with "Connection is closed"; the cause (ECONNREFUSED, NOAUTH…) comes as an event. */
async function connectOnce(client: Redis): Promise<void> {
  let cause: Error | undefined
  const onError = (e: Error) => void (cause ??= e)
  client.on('error', onError)
  try {
    await client.connect()
  } catch (e) {
    throw cause ?? e
  } finally {
    client.off('error', onError)
  }
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

export async function createRedisStore(url: string, keySpace: KeySpace = { prefix: 'tg:', shards: 16 }, commandTimeoutMs = 1_500): Promise<Store> {
  ensureTracingChannelHasSubscribers()
  const redis = new Redis(url, hotPathOptions(commandTimeoutMs)) as Scripted
  // Blocking reads get their own connection so they never hold up the hot path's commands.
  const reader = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: (times: number) => Math.min(50 * times, 500) })
  await Promise.all([connectOnce(redis), connectOnce(reader)]).catch((e) => {
    redis.disconnect()
    reader.disconnect()
    throw e
  })
  // Connection errors surface on each failed command (503 or retry) and ioredis reconnects by
  // itself; without a listener it would print every one of them as "Unhandled error event".
  for (const c of [redis, reader]) c.on('error', () => {})
  redis.defineCommand('tgAdmit', { numberOfKeys: 4, lua: await script('admit') })
  redis.defineCommand('tgSettle', { numberOfKeys: 5, lua: await script('settle') })
  redis.defineCommand('tgRelease', { numberOfKeys: 5, lua: await script('release') })
  redis.defineCommand('tgRenew', { numberOfKeys: 1, lua: await script('renew') })
  redis.defineCommand('tgLoad', { numberOfKeys: 1, lua: await script('load') })
  redis.defineCommand('tgAdjust', { numberOfKeys: 1, lua: await script('adjust') })
  redis.defineCommand('tgHit', { numberOfKeys: 1, lua: await script('hit') })

  const outboxes = Array.from({ length: keySpace.shards }, (_, s) => outboxKey(keySpace, s))
  // Created at start and again by the ledger writer when Redis lost them (NOGROUP).
  const ensureGroups = async () => {
    for (const key of outboxes) {
      await redis.xgroup('CREATE', key, GROUP, '0', 'MKSTREAM').catch((e: Error) => {
        if (!String(e.message).includes('BUSYGROUP')) throw e
      })
    }
  }
  await ensureGroups()
  const shardOfKey = new Map(outboxes.map((k, i) => [k, i]))
  const acct = (userId: string) => accountKey(keySpace, shardOf(userId, keySpace.shards), userId)

  const toEntries = (reply: StreamReply): OutboxEntry[] => {
    const out: OutboxEntry[] = []
    for (const [key, items] of streamPairs(reply)) {
      const shard = shardOfKey.get(key)!
      for (const [id, fields] of items) if (fields) out.push({ id, shard, record: fields[1] ?? '' })
    }
    return out
  }

  return {
    kind: 'redis',
    async admit(input: AdmitInput): Promise<AdmitResult> {
      const shard = shardOf(input.userId, keySpace.shards)
      const { index, resetMs } = windowOf(input.nowMs)
      const lease = input.lease
      const [status, count] = await redis.tgAdmit(
        accountKey(keySpace, shard, input.userId),
        windowKey(keySpace, shard, input.keyId, index),
        leasesKey(keySpace, shard),
        leaseDataKey(keySpace, shard),
        input.keyId,
        input.rpm,
        input.reserveMicros.toString(),
        (input.keyLimitMicros ?? -1n).toString(),
        WINDOW_MS + 1_000,
        lease?.id ?? '',
        String(lease?.deadlineMs ?? 0),
        lease ? leaseData(input, lease) : '',
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
      const [applied] = await redis.tgSettle(
        accountKey(keySpace, shard, input.userId),
        outboxKey(keySpace, shard),
        leasesKey(keySpace, shard),
        leaseDataKey(keySpace, shard),
        abandonedKey(keySpace, shard, input.leaseId ?? ''),
        input.keyId,
        input.reservedMicros.toString(),
        input.costMicros.toString(),
        input.record,
        input.leaseId ?? '',
      )
      return applied === 1
    },
    async renewLease(userId, leaseId, deadlineMs) {
      return (await redis.tgRenew(leasesKey(keySpace, shardOf(userId, keySpace.shards)), leaseId, deadlineMs)) === 1
    },
    async sweepLeases(nowMs, max) {
      // One round trip finds the expired leases of every shard; each is then released by one
      // script call that re-checks its deadline (another instance may have settled or swept it).
      const pipe = redis.pipeline()
      for (let s = 0; s < keySpace.shards; s++) pipe.zrangebyscore(leasesKey(keySpace, s), '-inf', nowMs, 'LIMIT', 0, max)
      const found = ((await pipe.exec()) ?? []).map(([, ids]) => (ids as string[] | null) ?? [])
      let released = 0
      for (const [s, ids] of found.entries()) {
        if (ids.length === 0) continue
        const data = await redis.hmget(leaseDataKey(keySpace, s), ...ids)
        for (const [i, id] of ids.entries()) {
          const userId = data[i]?.split('\t', 1)[0] ?? ''
          const keys = [leasesKey(keySpace, s), leaseDataKey(keySpace, s), accountKey(keySpace, s, userId), outboxKey(keySpace, s), abandonedKey(keySpace, s, id)] as const
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
    async forgetAccount(userId, leaseId) {
      if (leaseId === undefined) return void (await redis.del(acct(userId)))
      const s = shardOf(userId, keySpace.shards)
      await redis
        .multi()
        .zrem(leasesKey(keySpace, s), leaseId)
        .hdel(leaseDataKey(keySpace, s), leaseId)
        .set(abandonedKey(keySpace, s, leaseId), '1', 'PX', ABANDONED_MARK_MS)
        .del(acct(userId))
        .exec()
    },
    async readOutbox(consumer, max, blockMs) {
      // BLOCK 0 would wait forever: a non-blocking read simply omits it.
      const block = blockMs > 0 ? ['BLOCK', String(blockMs)] : []
      const args = ['GROUP', GROUP, consumer, 'COUNT', String(max), ...block, 'STREAMS', ...outboxes, ...outboxes.map(() => '>')]
      return toEntries((await reader.call('XREADGROUP', ...args)) as StreamReply)
    },
    async ackOutbox(entries) {
      if (entries.length === 0) return
      // One XACK and one XDEL per shard for the whole batch.
      const byShard = new Map<number, string[]>()
      for (const e of entries) byShard.set(e.shard, [...(byShard.get(e.shard) ?? []), e.id])
      const pipe = redis.pipeline()
      for (const [shard, ids] of byShard) {
        pipe.xack(outboxes[shard]!, GROUP, ...ids)
        pipe.xdel(outboxes[shard]!, ...ids)
      }
      await pipe.exec()
    },
    async reclaimOutbox(consumer, minIdleMs, max) {
      const out: OutboxEntry[] = []
      for (const [shard, key] of outboxes.entries()) {
        const [, items] = (await redis.xautoclaim(key, GROUP, consumer, minIdleMs, '0', 'COUNT', max)) as [string, [string, string[]][]]
        for (const [id, fields] of items) if (fields) out.push({ id, shard, record: fields[1] ?? '' })
      }
      return out
    },
    repairOutbox: ensureGroups,
    async hit(bucket, limit, windowMs, nowMs) {
      const { index, resetMs } = windowOf(nowMs, windowMs)
      const [ok, count] = await redis.tgHit(counterKey(keySpace, bucket, index), limit, windowMs + 1_000)
      return { ok: ok === 1, rate: { limit, remaining: Math.max(0, limit - count), resetMs } }
    },
    async outboxStats() {
      // Acknowledged entries are deleted (ackOutbox), so XLEN counts the unwritten ones and the
      // first entry's id is the oldest append time (stream ids are "<ms>-<seq>").
      const pipe = redis.pipeline()
      for (const key of outboxes) pipe.xlen(key).xrange(key, '-', '+', 'COUNT', 1)
      const replies = (await pipe.exec()) ?? []
      let depth = 0
      let oldestMs: number | null = null
      for (let i = 0; i < replies.length; i += 2) {
        const [lenErr, len] = replies[i]!
        const [rangeErr, range] = replies[i + 1]!
        if (lenErr || rangeErr) throw lenErr ?? rangeErr
        depth += Number(len)
        const first = (range as [string, string[]][])[0]
        if (first) oldestMs = Math.min(oldestMs ?? Infinity, Number(first[0].split('-')[0]))
      }
      return { depth, oldestMs }
    },
    async ping() {
      await redis.ping()
    },
    async close() {
      reader.disconnect()
      // While Redis is unreachable QUIT cannot be sent: drop the socket instead.
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
