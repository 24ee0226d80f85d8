// Scrape-time metrics (src/observability/telemetry.ts): whether the store and the database
// answer, the outbox depth and age, open streams and this instance's reservations — read when
// scraped, a probe that fails or hangs reading as down.
import { describe, expect, test } from 'bun:test'
import type { Db } from '../../src/db/client.ts'
import { Metrics } from '../../src/observability/telemetry.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import type { Store } from '../../src/store/types.ts'
import { Exposition } from '../helpers/prometheus.ts'

const answeringDb = { execute: async () => [{ '?column?': 1 }] } as unknown as Db
const failingDb = { execute: async () => Promise.reject(new Error('ECONNREFUSED')) } as unknown as Db

describe('Metrics', () => {
  test('before watch: only the reservation gauge is set, from reservedMicros', async () => {
    const metrics = new Metrics({ processMetrics: false })
    metrics.reservedMicros = 777
    const e = new Exposition(await metrics.scrape())
    expect(e.value('tollgate_reserved_micros')).toBe(777)
    expect(e.value('tollgate_store_up')).toBe(0)
  })

  test('everything answering: up gauges at 1, open streams and outbox read at scrape', async () => {
    const metrics = new Metrics({ processMetrics: false })
    const store = createMemoryStore()
    let open = 3
    metrics.watch({ store, db: answeringDb, openStreams: () => open })
    await store.appendOutbox('u', '{}')
    await store.appendOutbox('u', '{}')
    let e = new Exposition(await metrics.scrape())
    expect(e.value('tollgate_store_up')).toBe(1)
    expect(e.value('tollgate_database_up')).toBe(1)
    expect(e.value('tollgate_open_streams')).toBe(3)
    expect(e.value('tollgate_outbox_depth')).toBe(2)
    expect(e.value('tollgate_ledger_lag_seconds')).toBeGreaterThanOrEqual(0)
    expect(e.value('tollgate_ledger_lag_seconds')).toBeLessThan(60)
    open = 0
    await store.ackOutbox(await store.readOutbox('w', 10, 0))
    e = new Exposition(await metrics.scrape())
    expect(e.value('tollgate_open_streams')).toBe(0)
    expect(e.value('tollgate_outbox_depth')).toBe(0)
    expect(e.value('tollgate_ledger_lag_seconds')).toBe(0)
  })

  test('a database that fails reads 0; a store that fails reads 0 and the outbox gauges keep their last value', async () => {
    const metrics = new Metrics({ processMetrics: false })
    const store = createMemoryStore()
    await store.appendOutbox('u', '{}')
    let broken = false
    const flaky: Store = {
      ...store,
      ping: async () => (broken ? Promise.reject(new Error('down')) : undefined),
      outboxStats: async () => (broken ? Promise.reject(new Error('down')) : store.outboxStats()),
    }
    metrics.watch({ store: flaky, db: failingDb, openStreams: () => 0 })
    let e = new Exposition(await metrics.scrape())
    expect(e.value('tollgate_database_up')).toBe(0)
    expect(e.value('tollgate_store_up')).toBe(1)
    expect(e.value('tollgate_outbox_depth')).toBe(1)
    broken = true
    e = new Exposition(await metrics.scrape())
    expect(e.value('tollgate_store_up')).toBe(0)
    expect(e.value('tollgate_outbox_depth')).toBe(1)
  })

  test('the AOF gauge is set only for a Redis store', async () => {
    const metrics = new Metrics({ processMetrics: false })
    const redisLike: Store = { ...createMemoryStore(), kind: 'redis', appendOnly: async () => true }
    metrics.watch({ store: redisLike, db: answeringDb, openStreams: () => 0 })
    expect(new Exposition(await metrics.scrape()).value('tollgate_redis_aof_enabled')).toBe(1)
    const mem = new Metrics({ processMetrics: false })
    mem.watch({ store: createMemoryStore(), db: answeringDb, openStreams: () => 0 })
    expect(new Exposition(await mem.scrape()).value('tollgate_redis_aof_enabled')).toBe(0)
  })

  test('process metrics are exported only when asked, and two runtimes share one process registry', async () => {
    const a = await new Metrics().scrape()
    const b = await new Metrics().scrape()
    expect(a).toContain('process_cpu_user_seconds_total')
    expect(b).toContain('process_cpu_user_seconds_total')
    expect(await new Metrics({ processMetrics: false }).scrape()).not.toContain('process_cpu_user_seconds_total')
  })
})
