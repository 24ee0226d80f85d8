// Connects the Redis store to one Redis (REDIS_URL) or to a Redis/Valkey Cluster
// (REDIS_CLUSTER_NODES, docs/scaling.md). Both clients expose the same command API; what differs
// on a cluster is that every command must name keys of one hash slot — the store's key layout
// (keys.ts) guarantees that, and it never sends a multi-key command across shards.
import Redis, { Cluster } from 'ioredis'

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

export interface ClientOptions {
  maxRetriesPerRequest: number | null
  enableAutoPipelining: boolean
}

export async function connectRedis(target: RedisTarget, opts: ClientOptions): Promise<RedisClient> {
  if (typeof target === 'string') {
    const client = new Redis(target, { lazyConnect: true, ...opts })
    await client.connect()
    return client
  }
  const nodes = target.cluster.map(nodeOf)
  const { username, password, tls } = nodes[0]!
  const client = new Cluster(
    nodes.map(({ host, port }) => ({ host, port })),
    {
      lazyConnect: true,
      // Off on a cluster: ioredis 6 batches auto-pipelined commands per node and, when a slot
      // moves (failover), answers MOVED to the caller instead of redirecting (ioredis #2075;
      // reproduced by test/scale/redis-cluster.test.ts). Commands still share each node's socket.
      enableAutoPipelining: false,
      // A failover answers MOVED / CLUSTERDOWN for a moment: ioredis re-reads the slot map and retries.
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      redisOptions: { username, password, tls: tls ? {} : undefined, maxRetriesPerRequest: opts.maxRetriesPerRequest },
    },
  )
  await client.connect()
  return client
}
