// A whole Tollgate for a test: real Postgres (fresh database) or PGlite, real Redis (own key
// prefix) or the in-process store, a catalog pointing at fake upstreams, and helpers to create
// funded users and to wait until settlement has reached Postgres.
import { eq, sql } from 'drizzle-orm'
import { createApp } from '../../src/app.ts'
import { applyMovement, createUser } from '../../src/billing/accounts.ts'
import { issueKey, type KeyRequest } from '../../src/auth/issue-key.ts'
import { parseCatalogFile, upsertCatalog, type CatalogFile } from '../../src/catalog/file.ts'
import { loadConfig } from '../../src/config.ts'
import { accounts, ledgerEntries } from '../../src/db/schema/index.ts'
import { type Logger, silentLogger } from '../../src/lib/log.ts'
import { usdToMicros } from '../../src/lib/money.ts'
import { createRuntime, type Runtime } from '../../src/runtime.ts'
import { freshDatabase, freshKeyPrefix, REDIS_URL, SERVICES } from './services.ts'

export type Backends = { db: 'postgres' | 'pglite'; store: 'redis' | 'memory' }

/** postgres+redis is left out when those services are unreachable (test/setup.ts says so). */
export const ALL_BACKENDS: Backends[] = [
  { db: 'postgres' as const, store: 'redis' as const },
  { db: 'pglite' as const, store: 'memory' as const },
].filter((b) => SERVICES || b.db === 'pglite')

export const ADMIN_TOKEN = 'test-admin-token-0123456789'

export interface TestGateway {
  runtime: Runtime
  app: ReturnType<typeof createApp>
  /** In-process request (no socket). */
  request(path: string, init?: RequestInit): Promise<Response>
  /** Start a real listener; returns its base URL (for SDK tests). */
  listen(): string
  /** A user with `usd` of credit and one API key. */
  user(usd: number, key?: Omit<KeyRequest, 'userId'>): Promise<{ userId: string; keyId: string; key: string }>
  /** Wait until every settlement so far is written to Postgres. */
  settled(): Promise<void>
  /** Postgres balance and the sum of completed ledger entries, in micro-USD. */
  books(userId: string): Promise<{ balance: bigint; ledgerSum: bigint }>
  /** A second instance on the same Postgres and Redis (postgres+redis only); settled() and stop() cover it. */
  peer(): Promise<GatewayInstance>
  stop(): Promise<void>
}

export type GatewayInstance = Pick<TestGateway, 'runtime' | 'app' | 'request'>

export function simpleCatalog(
  gateways: { id: string; url: string; timeoutMs?: number }[],
  extra: Partial<CatalogFile['models'][number]> = {},
): CatalogFile {
  return {
    gateways: gateways.map((g) => ({
      id: g.id,
      protocol: 'openai-chat' as const,
      baseUrl: `${g.url}/v1`,
      apiKey: 'sk-upstream-secret',
      timeoutMs: g.timeoutMs ?? 2_000,
    })),
    models: [
      {
        id: 'acme/chat-1',
        name: 'Chat 1',
        description: 'Test model',
        provider: 'acme',
        family: 'chat-1',
        contextWindow: 128_000,
        capabilities: ['text', 'streaming', 'tool-calling'],
        pricing: { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0.1875 },
        routes: gateways.map((g) => ({ gateway: g.id, model: 'upstream-secret-model' })),
        ...extra,
      },
    ],
  }
}

/** The three upstream protocols, one gateway each (`gw-<protocol>`) and one model routed to each (`<prefix>/<protocol>`). */
export const UPSTREAM_PROTOCOLS = ['openai-chat', 'anthropic-messages', 'openai-responses'] as const

export function perProtocolCatalog(
  ups: Record<(typeof UPSTREAM_PROTOCOLS)[number], { url: string }>,
  o: { prefix?: string; upstreamModel?: string; capabilities?: string[]; pricing?: CatalogFile['models'][number]['pricing'] } = {},
): CatalogFile {
  const prefix = o.prefix ?? 't'
  return {
    gateways: UPSTREAM_PROTOCOLS.map((p) => ({
      id: `gw-${p}`,
      protocol: p,
      baseUrl: `${ups[p].url}/v1`,
      apiKey: 'sk-upstream-secret',
      timeoutMs: 2_000,
    })),
    models: UPSTREAM_PROTOCOLS.map((p) => ({
      id: `${prefix}/${p}`,
      name: p,
      provider: prefix,
      contextWindow: 200_000,
      capabilities: o.capabilities ?? ['text'],
      pricing: o.pricing ?? { input: 1, output: 2 },
      routes: [{ gateway: `gw-${p}`, model: o.upstreamModel ?? 'upstream-model-name' }],
    })),
  }
}

/**
 * One attempt per route and no breaker: the policy of a gateway the test catalog gives none, so
 * suites about other things see each scripted failure exactly once. test/routing sets policies.
 */
export const SINGLE_ATTEMPT = { retries: 0, breaker: { enabled: false } }

export async function startTestGateway(
  backends: Backends,
  catalog: CatalogFile,
  env: Record<string, string> = {},
  opts: { log?: Logger } = {},
): Promise<TestGateway> {
  catalog = { ...catalog, gateways: catalog.gateways.map((g) => ({ ...g, policy: g.policy ?? SINGLE_ATTEMPT })) }
  const database = backends.db === 'postgres' ? await freshDatabase() : undefined
  const keys = backends.store === 'redis' ? freshKeyPrefix() : undefined
  const config = loadConfig({
    DATABASE_URL: database?.url ?? 'memory://',
    REDIS_URL: keys ? REDIS_URL : undefined,
    ADMIN_TOKEN,
    SETTLE_FLUSH_MS: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ...env,
  })
  const runtimeOptions = {
    log: opts.log ?? (process.env.TEST_LOG_LEVEL ? undefined : silentLogger),
    keySpace: keys ? { prefix: keys.prefix, shards: 4 } : undefined,
    catalogRefreshMs: 0,
    writerBlockMs: 20,
  }
  const runtime = await createRuntime(config, runtimeOptions)
  const peers: Runtime[] = []
  await upsertCatalog(runtime.deps.db, parseCatalogFile(catalog))
  await runtime.deps.catalog.refresh()
  const app = createApp(runtime.deps)
  let listening = false
  return {
    runtime,
    app,
    request: (path, init) => app.handle(new Request(`http://tollgate.test${path}`, init)),
    listen() {
      if (!listening) app.listen({ port: 0, hostname: '127.0.0.1' })
      listening = true
      return `http://127.0.0.1:${app.server!.port}`
    },
    async user(usd, key = {}) {
      const { db, store } = runtime.deps
      const user = await createUser(db, `u-${crypto.randomUUID()}@test.local`, null)
      if (usd !== 0)
        await applyMovement(db, store, {
          userId: user.id,
          amountMicros: usdToMicros(usd)!,
          kind: 'adjustment',
          method: 'test',
          reference: `test:${user.id}`,
        })
      const issued = await issueKey(runtime.deps, { ...key, userId: user.id })
      return { userId: user.id, keyId: issued.id, key: issued.key }
    },
    async settled() {
      const all = [runtime, ...peers]
      for (const r of all) await r.deps.inflight.settled()
      for (const r of all) await r.writer.stop()
      for (const r of all) r.writer.start()
    },
    async books(userId) {
      const { db } = runtime.deps
      const [acct] = await db.select({ b: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, userId))
      const [sum] = await db
        .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)::text` })
        .from(ledgerEntries)
        .where(sql`${ledgerEntries.userId} = ${userId} and ${ledgerEntries.status} = 'completed'`)
      return { balance: acct?.b ?? 0n, ledgerSum: BigInt(sum?.s ?? '0') }
    },
    async peer() {
      if (!database || !keys) throw new Error('peer() needs postgres+redis: instances share only those')
      const r = await createRuntime(config, runtimeOptions)
      peers.push(r)
      const peerApp = createApp(r.deps)
      return { runtime: r, app: peerApp, request: (path, init) => peerApp.handle(new Request(`http://tollgate.test${path}`, init)) }
    },
    async stop() {
      for (const r of peers) await r.stop()
      if (listening) await app.stop(true)
      await runtime.stop()
      await keys?.clear()
      await database?.drop()
    },
  }
}

export const chatBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Say hello' }], ...extra })

export const bearer = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })
