// The settlement outbox on Redis: one stream per shard ({s<n>}:outbox, keys.ts), one consumer
// group shared by every instance's ledger writer. On a Redis Cluster every command names ONE
// stream (a multi-key XREADGROUP across shards is refused there: CROSSSLOT); on a single Redis
// one XREADGROUP reads every shard, so a writer's read is one command, not one per shard.
import type { OutboxEntry } from './types.ts'
import type { RedisClient } from './redis-client.ts'

export const GROUP = 'ledger-writers'

/** How often an idle writer looks at the shards again while it waits for new entries. */
export const OUTBOX_POLL_MS = 50

type StreamItems = [id: string, fields: string[] | null][]

/**
 * XREADGROUP answers [[key, items], …] over RESP2 and a map, flattened to [key, items, …], over
 * RESP3; only streams that had entries are named, and nil when none had.
 */
function itemsByStream(reply: unknown): [key: string, items: StreamItems][] {
  if (!Array.isArray(reply) || reply.length === 0) return []
  if (typeof reply[0] !== 'string') return reply as [string, StreamItems][]
  const pairs: [string, StreamItems][] = []
  for (let i = 0; i < reply.length; i += 2) pairs.push([reply[i] as string, (reply[i + 1] ?? []) as StreamItems])
  return pairs
}

const entriesOf = (shard: number, items: StreamItems): OutboxEntry[] =>
  items.flatMap(([id, fields]) => (fields ? [{ id, shard, record: fields[1] ?? '' }] : []))

/**
 * One XREADGROUP from position `from` ('>' new, '0' this consumer's pending) of up to `max`
 * entries per shard: a single command on one Redis; on a cluster one per shard, sent at once
 * (each to its slot's node).
 */
async function readGroup(redis: RedisClient, streams: string[], consumer: string, max: number, from: string): Promise<OutboxEntry[]> {
  const read = (keys: string[]) =>
    redis.call('XREADGROUP', 'GROUP', GROUP, consumer, 'COUNT', String(max), 'STREAMS', ...keys, ...keys.map(() => from))
  const replies = redis.isCluster ? await Promise.all(streams.map((key) => read([key]))) : [await read(streams)]
  const out: OutboxEntry[] = []
  for (const reply of replies)
    for (const [key, items] of itemsByStream(reply)) {
      const shard = streams.indexOf(key)
      if (shard >= 0) out.push(...entriesOf(shard, items))
    }
  return out
}

export async function createGroups(redis: RedisClient, streams: string[]): Promise<void> {
  for (const key of streams) {
    await redis.xgroup('CREATE', key, GROUP, '0', 'MKSTREAM').catch((e: Error) => {
      if (!String(e.message).includes('BUSYGROUP')) throw e
    })
  }
}

/** One non-blocking read of every shard; up to `max` per shard. */
const readAllShards = (redis: RedisClient, streams: string[], consumer: string, max: number) =>
  readGroup(redis, streams, consumer, max, '>')

/**
 * Entries already delivered to `consumer` and not acknowledged (XREADGROUP from id 0): after a
 * read whose reply was lost (a command timeout while Redis stalled), Redis counts them as
 * delivered, so a `>` read never returns them again.
 */
export const ownPendingShards = (redis: RedisClient, streams: string[], consumer: string, max: number) =>
  readGroup(redis, streams, consumer, max, '0')

/**
 * An idle writer polls every OUTBOX_POLL_MS until something arrives or `blockMs` has passed (a
 * blocking read would hold up the hot-path commands that share the connection): 20 reads a
 * second per idle instance, each one command on a single Redis and one per shard on a cluster
 * (docs/scaling.md).
 */
export async function readShards(
  redis: RedisClient,
  streams: string[],
  consumer: string,
  max: number,
  blockMs: number,
): Promise<OutboxEntry[]> {
  const deadline = Date.now() + blockMs
  for (;;) {
    const entries = await readAllShards(redis, streams, consumer, max)
    const left = deadline - Date.now()
    if (entries.length > 0 || left <= 0) return entries
    await Bun.sleep(Math.min(OUTBOX_POLL_MS, left))
  }
}

/** A client with the outbox's acknowledging script defined (defineOutboxScripts). */
export type OutboxClient = RedisClient & { tgAck(stream: string, group: string, ...ids: string[]): Promise<number> }

/**
 * Defines lua/ack.lua on the client, before any command is sent on it: an auto-pipelined batch
 * opened before a script is defined lacks it (ioredis copies the scripts when it opens one).
 */
export async function defineOutboxScripts(redis: RedisClient): Promise<OutboxClient> {
  redis.defineCommand('tgAck', { numberOfKeys: 1, lua: await Bun.file(new URL('./lua/ack.lua', import.meta.url)).text() })
  return redis as OutboxClient
}

/**
 * One script call per shard for the whole batch (lua/ack.lua: XACK, then the acknowledged
 * entries trimmed off the stream); each shard's goes to its own slot.
 */
export async function ackShards(redis: OutboxClient, streams: string[], entries: OutboxEntry[]): Promise<void> {
  const byShard = new Map<number, string[]>()
  for (const e of entries) {
    const ids = byShard.get(e.shard)
    if (ids) ids.push(e.id)
    else byShard.set(e.shard, [e.id])
  }
  await Promise.all([...byShard].map(([shard, ids]) => redis.tgAck(streams[shard]!, GROUP, ...ids)))
}

/** Entries handed to a consumer that died, idle longer than minIdleMs, re-delivered to `consumer`. */
export async function reclaimShards(
  redis: RedisClient,
  streams: string[],
  consumer: string,
  minIdleMs: number,
  max: number,
): Promise<OutboxEntry[]> {
  const out: OutboxEntry[] = []
  for (const [shard, key] of streams.entries()) {
    const [, items] = (await redis.xautoclaim(key, GROUP, consumer, minIdleMs, '0', 'COUNT', max)) as [string, StreamItems]
    out.push(...entriesOf(shard, items))
  }
  return out
}
