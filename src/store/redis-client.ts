// Connects the Redis store to one Redis (REDIS_URL) or to a Redis/Valkey Cluster
// (REDIS_CLUSTER_NODES, docs/scaling.md). Both clients expose the same command API; what differs
// on a cluster is that every command must name keys of one hash slot — the store's key layout
// (keys.ts) guarantees that, and it never sends a multi-key command across shards.
import Redis, { Cluster, type RedisOptions } from 'ioredis'

/** One server by URL, or a cluster by its seed nodes (any reachable subset; the rest is discovered). */
export type RedisTarget = string | { cluster: string[] }

export type RedisClient = Redis | Cluster

/** Host, port and credentials of a redis:// or rediss:// URL, as ioredis takes them. */
function nodeOf(url: string) {
  const u = new URL(url)
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === 'rediss:',
  }
}

/** connect() rejects with "Connection is closed"; the cause (ECONNREFUSED, NOAUTH…) comes as an event. */
async function connectOnce(client: RedisClient): Promise<void> {
  let cause: Error | undefined
  const onError = (e: Error) => void (cause ??= e)
  client.on('error', onError)
  try {
    await client.connect()
  } catch (e) {
    client.disconnect()
    throw cause ?? e
  } finally {
    client.off('error', onError)
  }
  // Connection errors surface on each failed command (503 or retry) and ioredis reconnects by
  // itself; without a listener it would print every one of them as "Unhandled error event".
  client.on('error', () => {})
}

/** `opts`: the connection's behaviour (store/redis.ts hotPathOptions); on a cluster, per node. */
export async function connectRedis(target: RedisTarget, opts: RedisOptions): Promise<RedisClient> {
  if (typeof target === 'string') {
    const client = new Redis(target, { ...opts, lazyConnect: true })
    await connectOnce(client)
    return client
  }
  const nodes = target.cluster.map(nodeOf)
  const { username, password, tls } = nodes[0]!
  const { enableAutoPipelining: _, retryStrategy, ...perNode } = opts
  const client = new Cluster(
    nodes.map(({ host, port }) => ({ host, port })),
    {
      lazyConnect: true,
      // Off on a cluster: ioredis 6 batches auto-pipelined commands per node and, when a slot
      // moves (failover), answers MOVED to the caller instead of redirecting (ioredis #2075;
      // reproduced by test/scale/redis-cluster.test.ts). Commands still share each node's socket.
      enableAutoPipelining: false,
      enableOfflineQueue: opts.enableOfflineQueue,
      clusterRetryStrategy: retryStrategy,
      // A failover answers MOVED / CLUSTERDOWN for a moment: ioredis re-reads the slot map and retries.
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      redisOptions: { ...perNode, username, password, tls: tls ? {} : undefined },
    },
  )
  await connectOnce(client)
  return client
}
