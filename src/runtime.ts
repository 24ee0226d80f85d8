// Builds the process's dependencies from config: database (+ migrations), store, catalog
// (CATALOG_FILE upsert), key auth, ledger writer. Clients are created here, never at import.
import { ApiKeyAuth } from './auth/api-keys.ts'
import { LedgerWriter } from './billing/ledger-writer.ts'
import { SettleRescue } from './billing/settle-rescue.ts'
import { type AccountMirror, accountMirror } from './billing/mirror.ts'
import { startLeaseSweep } from './billing/lease-sweep.ts'
import { Catalog } from './catalog/catalog.ts'
import { type CatalogFile, readCatalogFile, upsertCatalog } from './catalog/file.ts'
import { GatewayAuths } from './providers/auth/create-auth.ts'
import type { Config } from './config.ts'
import { openDatabase, type Database, type Db } from './db/client.ts'
import { maintainRequestLogPartitions } from './db/request-log-partitions.ts'
import { InFlight } from './inference/inflight.ts'
import { createLogger, type Logger } from './lib/log.ts'
import { startupFailure } from './lib/startup-error.ts'
import { Metrics } from './observability/telemetry.ts'
import { createTracer, type Tracer } from './observability/tracing.ts'
import { createMemoryStore } from './store/memory.ts'
import { appendOnlyWarning } from './store/append-only.ts'
import type { Store } from './store/types.ts'
import type { KeySpace } from './store/keys.ts'
import { createMemoryBoard } from './store/breaker-board.ts'
import { createMemoryRouteLimits } from './store/route-limits.ts'
import { createMemoryStickyRoutes } from './store/sticky-routes.ts'
import { Router } from './routing/router.ts'
import { SERVED_PROTOCOLS } from './providers/registry.ts'
import { AutoTopupTrigger } from './console/wallet/auto-topup-trigger.ts'
import { paymentProviders } from './console/payments/registry.ts'

/**
 * Everything the process built, handed to createApp (app.ts), which gives each feature the
 * narrow part it declares (e.g. inference/plugin.ts V1Deps).
 */
export interface AppDeps {
  db: Db
  store: Store
  catalog: Catalog
  auth: ApiKeyAuth
  config: Config
  log: Logger
  inflight: InFlight
  /** Where a settlement goes when the store's round trip fails (docs/operations.md). */
  rescue: SettleRescue
  /** The account mirror as admission warms and forgets it (docs/operations.md "Reloading a mirror"). */
  accounts: AccountMirror
  /** Breakers and failover counters (docs/failover.md). */
  router: Router
  /** Auto top-up after settlements; the console's PUT drops its cached settings. */
  autoTopup: AutoTopupTrigger
  now: () => number
  metrics: Metrics
  tracer: Tracer
}

export interface Runtime {
  deps: AppDeps
  database: Database
  writer: LedgerWriter
  stop(): Promise<void>
}

export interface RuntimeOptions {
  log?: Logger
  keySpace?: KeySpace
  /** Catalog snapshot refresh interval; 0 disables (tests refresh explicitly). */
  catalogRefreshMs?: number
  dataDir?: string
  /** Longest idle wait of the ledger writer's outbox read (it wakes at once on new entries). */
  writerBlockMs?: number
  /** How often expired leases are released (default 1 s). */
  leaseSweepMs?: number
  /** How often request_logs partitions are kept (created ahead, expired dropped); 0 = only at start. */
  partitionMaintenanceMs?: number
  /** An open, migrated database to use instead of opening DATABASE_URL (the test kit's pool); stop() closes it. */
  database?: Database
  /** A catalog given as an object instead of CATALOG_FILE (the test kit's): upserted before the first refresh. */
  catalog?: CatalogFile
}

export async function createRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = opts.log ?? createLogger(config.logLevel)
  // Each stage fails with one StartupError line naming the thing and the fix (index.ts prints it).
  const file = config.catalogFile
    ? await readCatalogFile(config.catalogFile).catch((e) => {
        throw startupFailure('catalog', e, { file: config.catalogFile })
      })
    : opts.catalog
  const database =
    opts.database ??
    (await openDatabase(config.databaseUrl, opts.dataDir).catch((e) => {
      throw startupFailure('database', e, { url: config.databaseUrl })
    }))
  const redisUrl = config.redisUrl
  const redisTarget = config.redisClusterNodes ? { cluster: config.redisClusterNodes } : redisUrl
  // Loaded only with Redis configured: ioredis is a fifth of the gateway's import time, which
  // embedded runs (the demo, the test kit) need not pay (docs/testing.md "Start time").
  const redis = redisTarget ? await redisModules() : undefined
  const store =
    redisTarget && redis
      ? await redis
          .createRedisStore(redisTarget, opts.keySpace ?? { prefix: config.redisPrefix, shards: 16 }, config.redisCommandTimeoutMs)
          .catch(async (e) => {
            await database.close()
            throw startupFailure('redis', e, { url: redisUrl ?? config.redisClusterNodes!.join(',') })
          })
      : createMemoryStore()
  // Once, at start: money needs Redis's append-only file (docs/operations.md "Redis: settings and failure behaviour").
  const aofWarning = store.kind === 'redis' ? appendOnlyWarning(await store.appendOnly()) : undefined
  if (aofWarning) log.warn(aofWarning)
  if (file) await upsertCatalog(database.db, file)
  const board =
    redisTarget && redis ? await redis.createRedisBoard(redisTarget, opts.keySpace?.prefix ?? config.redisPrefix) : createMemoryBoard()
  const keyPrefix = opts.keySpace?.prefix ?? config.redisPrefix
  const routeStores =
    redisTarget && redis
      ? await redis.createRedisRouteStores(redisTarget, keyPrefix)
      : { limits: createMemoryRouteLimits(), sticky: createMemoryStickyRoutes() }
  const router = new Router(board, log, Date.now, undefined, routeStores.limits, routeStores.sticky)
  await router.start(5_000)
  const maintainPartitions = () =>
    maintainRequestLogPartitions(database.db, Date.now(), { aheadMonths: 2, retentionDays: config.requestLogRetentionDays })
  await maintainPartitions()
  const maintenanceMs = opts.partitionMaintenanceMs ?? 3_600_000
  const maintainer =
    maintenanceMs > 0
      ? setInterval(
          () => maintainPartitions().catch((e) => log.error('request log partition maintenance failed', { err: String(e) })),
          maintenanceMs,
        )
      : undefined
  const auths = new GatewayAuths({
    env: (name) => config.secret(`env:${name}`),
    fetch: (url, init) => fetch(url, init),
    readFile: (path) => Bun.file(path).text(),
    now: Date.now,
  })
  const catalog = new Catalog(database.db, config.secret, SERVED_PROTOCOLS, auths)
  await catalog.refresh()
  for (const g of catalog.unresolvedSecrets())
    log.warn('catalog: a gateway key reference names an unset variable; calls through it carry no key', { gateway: g.id, apiKey: g.ref })
  for (const problem of catalog.authProblems()) log.warn(`catalog: ${problem}; calls through it fail over`)
  const refreshMs = opts.catalogRefreshMs ?? 10_000
  const refresher =
    refreshMs > 0
      ? setInterval(() => catalog.refresh().catch((e) => log.error('catalog refresh failed', { err: String(e) })), refreshMs)
      : undefined
  const rescue = new SettleRescue(database.db, store, log, config.dbRequestTimeoutMs)
  const deps: AppDeps = {
    db: database.db,
    store,
    catalog,
    auth: new ApiKeyAuth(database.db, config.keyCacheTtlMs, config.defaultRpm, Date.now, config.dbRequestTimeoutMs),
    config,
    log,
    inflight: new InFlight(),
    rescue,
    accounts: accountMirror(database.db, store, rescue, config.dbRequestTimeoutMs),
    router,
    now: Date.now,
    metrics: new Metrics(),
    tracer: await createTracer({ otlpEndpoint: config.otlpEndpoint, serviceName: config.otelServiceName }, log),
    autoTopup: new AutoTopupTrigger({
      db: database.db,
      store,
      log,
      payments: paymentProviders(config),
      config,
      // Read on each call, so a test that pins the process's `now` pins this one too.
      now: () => deps.now(),
    }),
  }
  deps.metrics.watch({ store, db: database.db, openStreams: () => deps.inflight.streams })
  router.counters.listener = (e) => {
    const { m } = deps.metrics
    if (e.kind === 'retry') m.retries.inc({ gateway: e.gateway })
    else if (e.kind === 'failover') m.failovers.inc({ gateway: e.gateway })
    else if (e.kind === 'breaker') m.breakerTransitions.inc({ gateway: e.gateway, state: e.state })
  }
  const writer = new LedgerWriter({
    db: database.db,
    store,
    log,
    batch: config.settleBatch,
    blockMs: opts.writerBlockMs ?? 1_000,
    lingerMs: config.settleFlushMs,
    metrics: deps.metrics.m,
  })
  writer.start()
  const stopSweep = startLeaseSweep(store, log, () => deps.now(), opts.leaseSweepMs)
  return {
    deps,
    database,
    writer,
    async stop() {
      if (refresher) clearInterval(refresher)
      stopSweep()
      if (maintainer) clearInterval(maintainer)
      await deps.inflight.settled()
      await deps.rescue.close()
      await writer.stop()
      await deps.tracer.shutdown()
      await store.close()
      await router.stop()
      await database.close()
    },
  }
}

/** The Redis-backed stores, imported when Redis is configured. */
async function redisModules() {
  const [{ createRedisStore }, { createRedisBoard }, { createRedisRouteStores }] = await Promise.all([
    import('./store/redis.ts'),
    import('./store/breaker-board-redis.ts'),
    import('./store/route-limits-redis.ts'),
  ])
  return { createRedisStore, createRedisBoard, createRedisRouteStores }
}
