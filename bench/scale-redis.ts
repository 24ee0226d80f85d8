// `bun bench/scale-redis.ts`: what one Redis sustains for the hot path (docs/scaling.md).
// Drives admit + settle (the two Lua scripts every call runs) from one process with CONCURRENCY
// loops for BENCH_SECONDS, on the Redis at BENCH_REDIS_URL (own key prefix, removed afterwards) or a
// cluster (BENCH_REDIS_CLUSTER_NODES). Reports calls/s seen by the client and Redis's own CPU
// per call (INFO cpu, summed over the nodes), whose inverse is the ceiling of one Redis core —
// the client process is usually the bottleneck on a small machine, Redis is not.
import Redis from 'ioredis'
import { loadavg } from 'node:os'
import { createRedisStore } from '../src/store/redis.ts'
import type { RedisTarget } from '../src/store/redis-client.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64)
const ACCOUNTS = 1_000
const cluster = process.env.BENCH_REDIS_CLUSTER_NODES?.split(',')
const target: RedisTarget = cluster ? { cluster } : (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379')
const nodes = cluster ?? [typeof target === 'string' ? target : '']

async function redisCpuSeconds(): Promise<number> {
  let total = 0
  for (const url of nodes) {
    const r = new Redis(url)
    const info = await r.info('cpu')
    r.disconnect()
    total += Number(/used_cpu_sys:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_user:([\d.]+)/.exec(info)![1])
  }
  return total
}

const prefix = `tgbench:${Date.now().toString(36)}:`
const store = await createRedisStore(target, { prefix, shards: 16 })
for (let a = 0; a < ACCOUNTS; a++) await store.loadAccount(`usr_${a}`, `key_${a}`, 1_000_000_000_000n, 0n)
let calls = 0
const end = Date.now() + SECONDS * 1000
const cpu0 = await redisCpuSeconds()
const t0 = performance.now()
await Promise.all(
  Array.from({ length: CONCURRENCY }, async (_, w) => {
    for (let i = w; Date.now() < end; i += CONCURRENCY) {
      const a = i % ACCOUNTS
      const r = await store.admit({
        userId: `usr_${a}`,
        keyId: `key_${a}`,
        rpm: 1_000_000_000,
        nowMs: Date.now(),
        reserveMicros: 100n,
        keyLimitMicros: null,
      })
      if (!r.ok) throw new Error(`admit refused: ${JSON.stringify(r)}`)
      await store.settle({ userId: `usr_${a}`, keyId: `key_${a}`, reservedMicros: 100n, costMicros: 61n, record: `{"i":${i}}` })
      calls++
    }
  }),
)
const secs = (performance.now() - t0) / 1000
const cpu = (await redisCpuSeconds()) - cpu0
console.log(
  `${cluster ? `cluster of ${cluster.length} masters` : 'one Redis'}: ${(calls / secs).toFixed(0)} calls/s (admit + settle) from one client process, ${CONCURRENCY} loops, ${SECONDS} s`,
)
console.log(
  `Redis CPU ${((cpu / calls) * 1e6).toFixed(1)} µs per call → ceiling ≈ ${(calls / cpu).toFixed(0)} calls/s per Redis core (extrapolated); load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
// Remove the bench's keys (accounts, windows, outboxes) — the outbox grows by one entry per call.
await store.close()
const r = cluster
  ? new Redis.Cluster(cluster.map((u) => ({ host: new URL(u).hostname, port: Number(new URL(u).port) })))
  : new Redis(target as string)
for (const node of cluster ? (r as InstanceType<typeof Redis.Cluster>).nodes('master') : [r as Redis]) {
  let cursor = '0'
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
    cursor = next
    for (const k of keys) await node.del(k)
  } while (cursor !== '0')
}
r.disconnect()
