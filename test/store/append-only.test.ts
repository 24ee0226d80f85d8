// Redis without its append-only file can lose settled calls on a restart (docs/operations.md
// "Redis: settings and failure behaviour"): read with CONFIG GET appendonly, warned once at
// start, shown on /readyz as redisAof and exported as tollgate_redis_aof_enabled. Against two
// throwaway redis-servers (ports 6417 and 6418), one with AOF and one without.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { createLogger } from '../../src/lib/log.ts'
import { createRuntime } from '../../src/runtime.ts'
import { appendOnlyWarning, readAppendOnly } from '../../src/store/append-only.ts'
import type { RedisClient } from '../../src/store/redis-client.ts'
import { startThrowawayRedis, type ThrowawayRedis } from '../helpers/redis-server.ts'
import { describeServices } from '../helpers/services.ts'

describe('append-only warning', () => {
  test('none with AOF on; one line naming the setting and the fix otherwise', () => {
    expect(appendOnlyWarning(true)).toBeUndefined()
    expect(appendOnlyWarning(false)).toContain('appendonly no')
    expect(appendOnlyWarning(undefined)).toContain('CONFIG GET refused')
    for (const w of [appendOnlyWarning(false)!, appendOnlyWarning(undefined)!]) {
      expect(w).toContain('set appendonly yes')
      expect(w).not.toContain('\n')
    }
  })

  test('a Redis that refuses CONFIG (a managed service) is unknown, not an error', async () => {
    const refusing = { config: () => Promise.reject(new Error("ERR unknown command 'CONFIG'")) } as unknown as RedisClient
    expect(await readAppendOnly(refusing)).toBeUndefined()
    const odd = { config: async () => [] } as unknown as RedisClient
    expect(await readAppendOnly(odd)).toBeUndefined()
  })
})

describeServices('Redis append-only file', () => {
  let withAof: ThrowawayRedis
  let withoutAof: ThrowawayRedis
  beforeAll(async () => {
    ;[withAof, withoutAof] = await Promise.all([startThrowawayRedis(6417, { aof: true }), startThrowawayRedis(6418, { aof: false })])
  }, 30_000)
  afterAll(async () => {
    await Promise.all([withAof?.stop(), withoutAof?.stop()])
  })

  /** A runtime on `redis` (embedded database), its warnings, /readyz and the metric. */
  async function instance(redis: ThrowawayRedis) {
    const warnings: string[] = []
    const log = createLogger('warn', (line) => warnings.push(JSON.parse(line).msg))
    const config = loadConfig({ DATABASE_URL: 'memory://', REDIS_URL: redis.url, METRICS_TOKEN: undefined })
    const runtime = await createRuntime(config, { log, catalogRefreshMs: 0, writerBlockMs: 20 })
    try {
      const app = createApp(runtime.deps)
      const ready = await (await app.handle(new Request('http://tollgate.test/readyz'))).json()
      const again = await (await app.handle(new Request('http://tollgate.test/readyz'))).json()
      const metrics = await (await app.handle(new Request('http://tollgate.test/metrics'))).text()
      const gauge = metrics.split('\n').find((l) => l.startsWith('tollgate_redis_aof_enabled '))
      return { warnings, ready, again, gauge }
    } finally {
      await runtime.stop()
    }
  }

  test('CONFIG GET appendonly is read as it is', async () => {
    const [yes, no] = [withAof.client(), withoutAof.client()]
    try {
      expect(await readAppendOnly(yes)).toBe(true)
      expect(await readAppendOnly(no)).toBe(false)
    } finally {
      yes.disconnect()
      no.disconnect()
    }
  })

  test('without AOF: one warning at start, redisAof false on /readyz (still ready), the gauge at 0', async () => {
    const { warnings, ready, again, gauge } = await instance(withoutAof)
    expect(warnings.filter((w) => w.includes('appendonly'))).toHaveLength(1)
    expect(ready).toEqual({ status: 'ready', database: true, store: true, redisAof: false })
    expect(again).toEqual(ready)
    expect(gauge).toBe('tollgate_redis_aof_enabled 0')
  }, 30_000)

  test('with AOF: no warning, redisAof true, the gauge at 1', async () => {
    const { warnings, ready, gauge } = await instance(withAof)
    expect(warnings.filter((w) => w.includes('appendonly'))).toEqual([])
    expect(ready).toEqual({ status: 'ready', database: true, store: true, redisAof: true })
    expect(gauge).toBe('tollgate_redis_aof_enabled 1')
  }, 30_000)
})
