// startTollgate (docs/testing.md): the real gateway in this process — embedded storage (in-memory
// PGlite, the in-process store), the test's catalog (or the default one on a fake upstream), a
// listener on a free port — and a funded user with a key. Each instance owns everything it
// started, so many run side by side and stop() leaves nothing behind.
import { createApp } from '../app.ts'
import { parseCatalogFile, type CatalogFile } from '../catalog/file.ts'
import { type Config, loadConfig } from '../config.ts'
import type { Database } from '../db/client.ts'
import { base62 } from '../lib/ids.ts'
import { silentLogger } from '../lib/log.ts'
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime.ts'
import { adminCaller, testAdmin, type KeyOptions, type TollgateAdmin, type TollgateWallet } from './admin.ts'
import { defaultCatalog } from './catalog.ts'
import { createDefaultUser } from './default-user.ts'
import { takeDatabase } from './database-pool.ts'
import { type FakeUpstream, type FakeUpstreamOptions, startFakeUpstream } from './fake-upstream/server.ts'

export interface TollgateOptions {
  /** The catalog (docs/api.md "Catalog file"), or a function of the fake upstream's URL; default: defaultCatalog. */
  catalog?: CatalogFile | ((upstreamUrl: string) => CatalogFile)
  /** A fake upstream to share (the test stops it), or options for the one this instance starts and stops. */
  upstream?: FakeUpstream | FakeUpstreamOptions
  /** The default user's credit in USD (default 10) and its key's settings (limits, models…). */
  credit?: number
  keyOptions?: KeyOptions
  /** Configuration variables (docs/deploy.md), e.g. `{ DEFAULT_RPM: '5' }`; storage is always embedded. */
  env?: Record<string, string>
}

export interface Tollgate {
  /** `http://127.0.0.1:<port>/v1`: the OpenAI SDK's `baseURL`. */
  baseURL: string
  /** `http://127.0.0.1:<port>`: the Anthropic SDK's `baseURL` (it adds /v1/messages). */
  anthropicBaseURL: string
  /** The default user's key ($10 of credit unless `credit` says otherwise). */
  key: string
  /** The default user, owner of `key`. */
  user: { id: string; email: string; keyId: string }
  admin: TollgateAdmin
  wallet: TollgateWallet
  upstream: FakeUpstream
  /** Waits until every call so far is billed and written (the admin and wallet reads do it themselves). */
  settled(): Promise<void>
  /** The process's runtime, for what the kit does not cover (internal: may change between versions). */
  runtime: Runtime
  stop(): Promise<void>
}

/** A kit instance's configuration: the test's variables, then embedded storage on a free local port. */
export function kitConfig(adminToken: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'error',
    SETTLE_FLUSH_MS: '0',
    ...env,
    DATABASE_URL: 'memory://',
    HOST: '127.0.0.1',
    PORT: '0',
    ADMIN_TOKEN: adminToken,
  })
}

/** A kit instance's runtime around its database and catalog: silent, no background refreshes, a writer that answers quickly. */
export const kitRuntimeOptions = (database: Database, catalog: CatalogFile): RuntimeOptions => ({
  log: silentLogger,
  catalogRefreshMs: 0,
  writerBlockMs: 20,
  partitionMaintenanceMs: 0,
  database,
  catalog,
})

const isFake = (u: TollgateOptions['upstream']): u is FakeUpstream => typeof (u as FakeUpstream | undefined)?.once === 'function'

export async function startTollgate(opts: TollgateOptions = {}): Promise<Tollgate> {
  const ownUpstream = !isFake(opts.upstream)
  const upstream = isFake(opts.upstream) ? opts.upstream : startFakeUpstream(opts.upstream)
  const stops: (() => Promise<unknown>)[] = ownUpstream ? [() => upstream.stop()] : []
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
  try {
    const catalog = parseCatalogFile(
      typeof opts.catalog === 'function' ? opts.catalog(upstream.url) : (opts.catalog ?? defaultCatalog(upstream.url)),
    )
    const adminToken = base62(32)
    const database = await takeDatabase()
    const runtime = await createRuntime(kitConfig(adminToken, opts.env), kitRuntimeOptions(database, catalog)).catch(async (e) => {
      await database.close()
      throw e
    })
    stops.push(() => runtime.stop())
    const app = createApp(runtime.deps)
    app.listen({ port: 0, hostname: '127.0.0.1', reusePort: false, maxRequestBodySize: Number.MAX_SAFE_INTEGER })
    stops.push(() => app.stop(true))
    const settled = async () => {
      await runtime.deps.inflight.settled()
      await runtime.writer.stop()
      runtime.writer.start()
    }
    const { admin, wallet } = testAdmin(
      adminCaller((r) => app.handle(r), adminToken),
      settled,
    )
    const email = 'user@tollgate.test'
    const credit = opts.credit ?? 10
    const user = opts.keyOptions
      ? await admin.createUser({ email, credit, key: opts.keyOptions })
      : await createDefaultUser(runtime.deps, email, credit)
    const origin = `http://127.0.0.1:${app.server!.port}`
    let stopped: Promise<void> | undefined
    return {
      baseURL: `${origin}/v1`,
      anthropicBaseURL: origin,
      key: user.key!.key,
      user: { id: user.id, email: user.email, keyId: user.key!.id },
      admin,
      wallet,
      upstream,
      settled,
      runtime,
      stop: () => (stopped ??= stopAll()),
    }
  } catch (e) {
    await stopAll()
    throw e
  }
}
