// createRuntime (src/runtime.ts) on real Postgres and Redis: the deps it builds from config, the
// catalog file loaded, routing events reaching the metrics, a clean stop; and each start-up
// failure as one StartupError naming the thing.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.ts'
import { silentLogger } from '../src/lib/log.ts'
import { StartupError } from '../src/lib/startup-error.ts'
import { createRuntime } from '../src/runtime.ts'
import { simpleCatalog } from './helpers/gateway.ts'
import { Exposition } from './helpers/prometheus.ts'
import { describeServices, freshDatabase, freshKeyPrefix, REDIS_URL } from './helpers/services.ts'

const dir = await mkdtemp(join(tmpdir(), 'tg-runtime-'))
afterAll(() => rm(dir, { recursive: true, force: true }))
const catalogFile = join(dir, 'catalog.json')
await Bun.write(catalogFile, JSON.stringify(simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])))

const opts = { log: silentLogger, catalogRefreshMs: 0, writerBlockMs: 20, partitionMaintenanceMs: 0 }

describeServices('createRuntime', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  }, 60_000)

  test('Postgres and Redis: the deps are built on them, the catalog file is loaded, routing events reach the metrics', async () => {
    const db = await freshDatabase()
    const keys = freshKeyPrefix()
    cleanups.push(db.drop, keys.clear)
    const config = loadConfig({ DATABASE_URL: db.url, REDIS_URL, CATALOG_FILE: catalogFile, LOG_LEVEL: 'error' })
    const runtime = await createRuntime(config, { ...opts, keySpace: { prefix: keys.prefix, shards: 4 } })
    try {
      expect(runtime.database.kind).toBe('postgres')
      expect(runtime.deps.store.kind).toBe('redis')
      expect(runtime.deps.config).toBe(config)
      expect(runtime.deps.catalog.all().map((m) => m.id)).toContain('acme/chat-1')
      runtime.deps.router.counters.listener({ kind: 'retry', gateway: 'gw-a' })
      runtime.deps.router.counters.listener({ kind: 'breaker', gateway: 'gw-a', state: 'open' })
      const e = new Exposition(await runtime.deps.metrics.scrape())
      expect(e.value('tollgate_upstream_retries_total', { gateway: 'gw-a' })).toBe(1)
      expect(e.value('tollgate_upstream_breaker_transitions_total', { gateway: 'gw-a', state: 'open' })).toBe(1)
      expect(e.value('tollgate_store_up')).toBe(1)
      expect(e.value('tollgate_database_up')).toBe(1)
    } finally {
      await runtime.stop()
    }
    // stopped: the database is closed
    await expect(runtime.database.ping()).rejects.toThrow()
  }, 60_000)

  test('without REDIS_URL the store is the in-process one', async () => {
    const db = await freshDatabase()
    cleanups.push(db.drop)
    const runtime = await createRuntime(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'error' }), opts)
    try {
      expect(runtime.deps.store.kind).toBe('memory')
    } finally {
      await runtime.stop()
    }
  }, 60_000)

  test('an unreachable Redis is a StartupError naming Redis', async () => {
    const db = await freshDatabase()
    cleanups.push(db.drop)
    const gone = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const port = gone.port
    gone.stop(true)
    const err = await createRuntime(
      loadConfig({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'error' }),
      opts,
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StartupError)
    expect((err as Error).message).toStartWith(`Redis unreachable at 127.0.0.1:${port}`)
  }, 60_000)
})

describe('createRuntime start-up failures', () => {
  test('a missing catalog file is a StartupError naming the file, before any database is opened', async () => {
    const err = await createRuntime(
      loadConfig({ CATALOG_FILE: join(dir, 'nope.json'), DATABASE_URL: 'postgres://127.0.0.1:9/x' }),
      opts,
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StartupError)
    expect((err as Error).message).toBe(`CATALOG_FILE ${join(dir, 'nope.json')} does not exist: fix the path or unset CATALOG_FILE`)
  })

  test('an unreachable database is a StartupError naming it', async () => {
    const gone = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const port = gone.port
    gone.stop(true)
    const err = await createRuntime(loadConfig({ DATABASE_URL: `postgres://u:pw@127.0.0.1:${port}/db` }), opts).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StartupError)
    expect((err as Error).message).toStartWith(`database unreachable at 127.0.0.1:${port} (ECONNREFUSED)`)
  })
})
