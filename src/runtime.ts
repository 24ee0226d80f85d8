// Builds the process's dependencies from config: database (+ migrations), store, catalog
// (CATALOG_FILE upsert), key auth, ledger writer. Clients are created here, never at import.
import { ApiKeyAuth } from './auth/api-keys.ts'
import { LedgerWriter } from './billing/ledger-writer.ts'
import { Catalog } from './catalog/catalog.ts'
import { parseCatalogFile, upsertCatalog } from './catalog/file.ts'
import type { Config } from './config.ts'
import type { GatewayProtocol } from './core/gateway.ts'
import { openDatabase, type Database } from './db/client.ts'
import { maintainRequestLogPartitions } from './db/request-log-partitions.ts'
import { InFlight, type InferenceDeps } from './inference/deps.ts'
import { createLogger, type Logger } from './lib/log.ts'
import { createMemoryStore } from './store/memory.ts'
import { createRedisStore } from './store/redis.ts'
import type { KeySpace } from './store/keys.ts'

/** Upstream protocols this build can serve any inbound protocol through. */
export const SERVED_PROTOCOLS: ReadonlySet<GatewayProtocol> = new Set(['openai-chat', 'anthropic-messages', 'openai-responses'])

export interface Runtime {
  deps: InferenceDeps
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
  /** How often request_logs partitions are kept (created ahead, expired dropped); 0 = only at start. */
  partitionMaintenanceMs?: number
}

export async function createRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = opts.log ?? createLogger(config.logLevel)
  const database = await openDatabase(config.databaseUrl, opts.dataDir)
  const redisTarget = config.redisClusterNodes ? { cluster: config.redisClusterNodes } : config.redisUrl
  const store = redisTarget ? await createRedisStore(redisTarget, opts.keySpace ?? { prefix: config.redisPrefix, shards: 16 }) : createMemoryStore()
  if (config.catalogFile) {
    const file = parseCatalogFile(await Bun.file(config.catalogFile).json())
    await upsertCatalog(database.db, file)
  }
  const maintainPartitions = () => maintainRequestLogPartitions(database.db, Date.now(), { aheadMonths: 2, retentionDays: config.requestLogRetentionDays })
  await maintainPartitions()
  const maintenanceMs = opts.partitionMaintenanceMs ?? 3_600_000
  const maintainer = maintenanceMs > 0 ? setInterval(() => maintainPartitions().catch((e) => log.error('request log partition maintenance failed', { err: String(e) })), maintenanceMs) : undefined
  const catalog = new Catalog(database.db, config.secret, SERVED_PROTOCOLS)
  await catalog.refresh()
  const refreshMs = opts.catalogRefreshMs ?? 10_000
  const refresher = refreshMs > 0 ? setInterval(() => catalog.refresh().catch((e) => log.error('catalog refresh failed', { err: String(e) })), refreshMs) : undefined
  const deps: InferenceDeps = {
    db: database.db,
    store,
    catalog,
    auth: new ApiKeyAuth(database.db, config.keyCacheTtlMs, config.defaultRpm),
    config,
    log,
    inflight: new InFlight(),
    now: Date.now,
  }
  const writer = new LedgerWriter({ db: database.db, store, log, batch: config.settleBatch, blockMs: opts.writerBlockMs ?? 1_000, lingerMs: config.settleFlushMs })
  writer.start()
  return {
    deps,
    database,
    writer,
    async stop() {
      if (refresher) clearInterval(refresher)
      if (maintainer) clearInterval(maintainer)
      await deps.inflight.settled()
      await writer.stop()
      await store.close()
      await database.close()
    },
  }
}
