// Tollgate on a real Redis Cluster (3 masters + 3 replicas on ports 7000–7005, started here):
// breakers are shared across instances as on one Redis;
// the store contract holds, every shard's keys share one slot while the shards spread over all
// masters, and a manual failover of a master under load leaves the money exact — every answered
// call billed once, Postgres balance == credit − Σ ledger, nothing left reserved.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../../src/config.ts'
import { CallEnded } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'
import type { Route } from '../../src/core/gateway.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { gatewayKey } from '../../src/routing/breakers.ts'
import { withFailover } from '../../src/routing/failover.ts'
import { resolvePolicy } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createRedisBoard } from '../../src/store/breaker-board-redis.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import { accountKey, inFlightKey, outboxKey, tokenWindowKey, windowKey } from '../../src/store/keys.ts'
import { createRedisStore } from '../../src/store/redis.ts'
import { shardOf } from '../../src/store/types.ts'
import { completionWithUsage, reservedOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { billedCalls, expectUsageCoversCalls } from '../helpers/money.ts'
import { bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startLocalCluster, type LocalCluster } from '../helpers/redis-cluster.ts'
import { storeContract } from '../store/contract.ts'
import { keyLimitsContract } from '../store/key-limits-contract.ts'
import { describeServices, SERVICES } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

// The cluster is started only where the suites that need it run (with the services, README "Tests").
let cluster: LocalCluster
beforeAll(async () => {
  if (SERVICES) cluster = await startLocalCluster(7000)
}, 120_000)
afterAll(async () => cluster?.stop(), 30_000)

describe('REDIS_CLUSTER_NODES', () => {
  test('seed nodes parse into a list; they exclude REDIS_URL; a bad node is named', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:7000, redis://b:7001' }).redisClusterNodes).toEqual([
      'redis://a:7000',
      'redis://b:7001',
    ])
    expect(loadConfig({}).redisClusterNodes).toBeUndefined()
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:7000', REDIS_URL: 'redis://a:6379' })).toThrow('exclude each other')
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:7000,http://b:1' })).toThrow(
      'REDIS_CLUSTER_NODES[1] must use redis: or rediss:',
    )
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:7000,rediss://b:7001' })).toThrow('one scheme')
  })
})

let prefixes = 0
if (SERVICES)
  storeContract('redis-cluster', async () => {
    const store = await createRedisStore({ cluster: cluster.nodes }, { prefix: `c${++prefixes}:`, shards: 4 })
    return { store, done: () => store.close() }
  })

if (SERVICES)
  keyLimitsContract('redis-cluster', async () => {
    const store = await createRedisStore({ cluster: cluster.nodes }, { prefix: `c${++prefixes}:`, shards: 4 })
    return { store, done: () => store.close() }
  })

describeServices('key layout on a cluster', () => {
  test("one shard's account, window and outbox keys share a slot; 16 shards land on all three masters", async () => {
    const ks = { prefix: 'tg:', shards: 16 }
    const masters = new Set<number>()
    for (let s = 0; s < ks.shards; s++) {
      const keys = [
        accountKey(ks, s, 'usr_x'),
        windowKey(ks, s, 'key_x', 123),
        tokenWindowKey(ks, s, 'key_x', 123),
        inFlightKey(ks, s, 'key_x'),
        outboxKey(ks, s),
      ]
      const slots = await Promise.all(keys.map((k) => cluster.cli(cluster.ports[0]!, 'cluster', 'keyslot', k)))
      expect(new Set(slots).size).toBe(1)
      masters.add((await cluster.replicaOfKey(outboxKey(ks, s))).master)
    }
    expect(masters.size).toBe(3)
  })
})

describeServices('gateway on the cluster: failover under load', () => {
  let up: FakeUpstream
  let gw: TestGateway
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'fn', handle: async () => (await Bun.sleep(3), Response.json(completionWithUsage(5, 100))) })
    gw = await startTestGateway({ db: 'postgres', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: up.url }]), {
      REDIS_CLUSTER_NODES: cluster.nodes.join(','),
    })
  }, 60_000)
  afterAll(async () => {
    await gw?.stop()
    up?.stop()
  }, 30_000)

  test('CLUSTER FAILOVER on a replica while calls run: every answer billed exactly once, books and mirror agree', async () => {
    expect(gw.runtime.deps.store.kind).toBe('redis')
    const users = await Promise.all(Array.from({ length: 6 }, () => gw.user(10, { rpm: 100_000 })))
    // Fail over the master that holds the first user's shard.
    const { master, replica } = await cluster.replicaOfKey(outboxKey({ prefix: 'tg:', shards: 16 }, shardOf(users[0]!.userId, 16)))
    const results: { userId: string; status: number; id: string | null }[] = []
    let running = true
    const worker = async (u: (typeof users)[number]) => {
      while (running) {
        const r = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body: chatBody({ max_tokens: 100 }) })
        await r.text()
        results.push({ userId: u.userId, status: r.status, id: r.headers.get('x-request-id') })
      }
    }
    const workers = users.flatMap((u) => [worker(u), worker(u)])
    await until(() => results.length >= 60, 'calls before the failover', 90_000)
    expect((await cluster.cli(replica, 'cluster', 'failover')).trim()).toBe('OK')
    await until(async () => (await cluster.cli(replica, 'info', 'replication')).includes('role:master'), 'the replica promoted', 90_000)
    const atFailover = results.length
    await until(() => results.length >= atFailover + 120, 'calls after the failover', 90_000)
    running = false
    await Promise.all(workers)
    expect((await cluster.cli(master, 'info', 'replication')).includes('role:slave')).toBe(true)

    // The switch pauses writes for a moment and then answers MOVED, which the client follows:
    // no call fails (with auto-pipelining on, ~10 % did — see src/store/redis-client.ts).
    expect(results.filter((r) => r.status !== 200)).toEqual([])
    const ok = results
    await gw.settled()
    const db = gw.runtime.deps.db
    for (const u of users) {
      const answered = ok
        .filter((r) => r.userId === u.userId)
        .map((r) => r.id!)
        .sort()
      const calls = await billedCalls(db, answered)
      expect(calls.map((c) => c.id).sort()).toEqual(answered)
      expect(calls.every((c) => c.cost === 61n && c.entryId !== null)).toBe(true)
      await expectUsageCoversCalls(db, u.userId)
      const books = await gw.books(u.userId)
      expect(books.balance).toBe(10_000_000n - 61n * BigInt(answered.length))
      expect(books.ledgerSum).toBe(books.balance)
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      expect((await gw.runtime.deps.store.account(u.userId))?.balanceMicros).toBe(books.balance)
    }
    const [logs] = await db.select({ n: sql<number>`count(*)::int` }).from(requestLogs)
    expect(logs!.n).toBe(results.filter((r) => r.id).length)
  }, 180_000)
})

describeServices('breakers shared on the cluster (docs/failover.md "Circuit breaker")', () => {
  const POLICY = { retries: 0, breaker: { failures: 2, cooldownMs: 1_000 } }
  const route: Route = {
    gateway: {
      id: 'gw-c',
      protocol: 'openai-chat',
      baseUrl: 'http://x',
      apiKey: undefined,
      timeoutMs: 1_000,
      enabled: true,
      policy: resolvePolicy(POLICY),
    },
    upstreamModel: 'm',
  }
  const timeout = () => new GatewayError('UPSTREAM_TIMEOUT', 'x', { retryable: true, upstream: { kind: 'timeout' } })

  test('an open breaker reaches the other instance; calls whose clients left record nothing; the close reaches both', async () => {
    const prefix = `brk${Date.now()}:`
    const [a, b] = await Promise.all([
      createRedisBoard({ cluster: cluster.nodes }, prefix),
      createRedisBoard({ cluster: cluster.nodes }, prefix),
    ])
    let clock = 50_000
    const one = new Router(
      a,
      silentLogger,
      () => clock,
      async () => {},
    )
    const two = new Router(
      b,
      silentLogger,
      () => clock,
      async () => {},
    )
    try {
      const key = gatewayKey(route)
      // An abort storm on the first instance: every attempt ended by its caller, none recorded.
      for (let i = 0; i < 20; i++) {
        const left = { ended: { kind: 'client_left' as const }, pause: (w: Promise<void>) => w }
        const err = await withFailover(one, [route], async () => Promise.reject(new CallEnded(left.ended)), `req_${i}`, left).catch(
          (e) => e,
        )
        expect(err).toBeInstanceOf(CallEnded)
      }
      expect([one.breakers.phase(key), two.breakers.phase(key)]).toEqual(['closed', 'closed'])
      // Real upstream failures open it, and the other instance learns it through the cluster.
      for (let i = 0; i < 2; i++) one.breakers.record(route, timeout())
      await two.breakers.admit(route, 't')
      await until(() => two.breakers.phase(key) === 'open', 'the second instance sees the open breaker')
      expect(await two.breakers.admit(route, 't')).toBe(false)
      // One probe across both after the cool-down; its success closes the breaker everywhere.
      clock += 1_000
      const probes = await Promise.all([one.breakers.admit(route, 'p1'), two.breakers.admit(route, 'p2')])
      expect(probes.filter(Boolean)).toHaveLength(1)
      ;(probes[0] ? one : two).breakers.record(route)
      for (const r of [one, two]) await until(() => r.breakers.phase(key) === 'closed', 'both see it closed')
    } finally {
      await one.stop()
      await two.stop()
    }
  })
})
