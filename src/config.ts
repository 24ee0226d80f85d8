// The only reader of the environment (docs/api.md "Environment"). Every variable is validated once at start;
// a bad value throws ConfigError naming the variable, and index.ts prints that one line.
import { parseIpBlock } from './lib/ip.ts'

export class ConfigError extends Error {}

export interface Config {
  port: number
  host: string
  /** undefined → embedded PGlite under ./data; "memory://" → in-memory PGlite. */
  databaseUrl: string | undefined
  /** undefined → in-process store with the Lua scripts' semantics. */
  redisUrl: string | undefined
  /** Seed node URLs of a Redis/Valkey Cluster (REDIS_CLUSTER_NODES); excludes redisUrl. */
  redisClusterNodes: string[] | undefined
  /** Prefix of every Redis key: deployments sharing one Redis must use different ones. */
  redisPrefix: string
  catalogFile: string | undefined
  adminToken: string | undefined
  /** How long a verified API key is trusted before Postgres is asked again (revocation delay). */
  keyCacheTtlMs: number
  /** Longest wait of the request path for Postgres (key lookup, mirror load) before a 503. */
  dbRequestTimeoutMs: number
  /** Longest wait for one Redis command before it fails (a 503, or the settlement fallback). */
  redisCommandTimeoutMs: number
  /** Requests per 60 s window for keys created without `rpm`. */
  defaultRpm: number
  /** Output tokens reserved when a request names no max_tokens (bounded estimate, docs/api.md "Reservations"). */
  defaultMaxOutputTokens: number
  maxBodyBytes: number
  /** Display credits per 1 USD (messages/responses `svc`, catalog shape B). */
  creditsPerUsd: number
  creditSymbol: string
  shutdownGraceMs: number
  /** A streaming client that reads nothing for this long is cut (docs/drain.md). */
  clientIdleMs: number
  /** How streaming upstream bodies are read: `fetch`, or `paced` (no read-ahead; docs/drain.md). */
  upstreamStreamClient: 'fetch' | 'paced'
  /** Ledger writer: how long it gathers a partial batch before writing it, and the batch size. */
  settleFlushMs: number
  settleBatch: number
  /** Request logs older than this many days are dropped, a month partition at a time; undefined keeps all. */
  requestLogRetentionDays: number | undefined
  topupMinUsd: number
  topupMaxUsd: number
  publicUrl: string | undefined
  /** Lifetime of a console session (cookie and server-side row). */
  sessionTtlSeconds: number
  /** Addresses or CIDR blocks whose X-Forwarded-For / X-Forwarded-Proto are believed. */
  trustedProxies: string[]
  stripe: { secretKey: string; webhookSecret: string; apiBase: string | undefined } | undefined
  sandboxPayments: { secret: string } | undefined
  /** Browser origins allowed to call /v1 (CORS); empty = CORS off; `*` = any (docs/security.md). */
  corsOrigins: string[]
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  /** GET /metrics requires `Authorization: Bearer <token>` when set (docs/observability.md). */
  metricsToken: string | undefined
  /** /metrics on its own listener at this port (and not on the main one); undefined → main listener. */
  metricsPort: number | undefined
  /** OTLP/HTTP base URL; traces go to <url>/v1/traces. undefined → tracing off, SDK not loaded. */
  otlpEndpoint: string | undefined
  otelServiceName: string
  /** Resolves a catalog secret reference: "env:NAME" reads the environment, anything else is literal. */
  secret: (ref: string | undefined) => string | undefined
}

type Env = Record<string, string | undefined>

function str(env: Env, name: string): string | undefined {
  const v = env[name]
  return v === undefined || v.trim() === '' ? undefined : v.trim()
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`)
  const n = Number(raw)
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`)
  return n
}

function num(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < min || n > max) throw new ConfigError(`${name} must be a number between ${min} and ${max}, got "${raw}"`)
  return n
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name)
  if (raw === undefined) return undefined
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`)
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`)
  return raw
}

/** Comma-separated redis:// or rediss:// URLs of one cluster's seed nodes, sharing scheme and credentials. */
function clusterNodes(env: Env, name: string): string[] | undefined {
  const entries = (str(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (entries.length === 0) return undefined
  for (const [i, e] of entries.entries()) url({ [`${name}[${i}]`]: e }, `${name}[${i}]`, ['redis:', 'rediss:'])
  const schemes = new Set(entries.map((e) => new URL(e).protocol))
  if (schemes.size > 1) throw new ConfigError(`${name} must use one scheme for every node (redis: or rediss:)`)
  return entries
}

function ipList(env: Env, name: string): string[] {
  const entries = (str(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const e of entries) if (!parseIpBlock(e)) throw new ConfigError(`${name} must list IP addresses or CIDR blocks, got "${e}"`)
  return entries
}

function origins(env: Env, name: string): string[] {
  const entries = (str(env, name) ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
  for (const e of entries) {
    if (e === '*') continue
    let u: URL | undefined
    try {
      u = new URL(e)
    } catch {}
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== e)
      throw new ConfigError(`${name} must list origins like https://app.example (or *), got "${e}"`)
  }
  return entries
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = str(env, name)
  if (raw === undefined) return fallback
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`)
  return raw as T
}

export function loadConfig(env: Env = process.env): Config {
  const topupMinUsd = num(env, 'TOPUP_MIN_USD', 5, 0.01, 10_000)
  const topupMaxUsd = num(env, 'TOPUP_MAX_USD', 10_000, 0.01, 10_000)
  if (topupMinUsd > topupMaxUsd) throw new ConfigError(`TOPUP_MIN_USD must not exceed TOPUP_MAX_USD`)
  const stripeKey = str(env, 'STRIPE_SECRET_KEY')
  const stripeHook = str(env, 'STRIPE_WEBHOOK_SECRET')
  if ((stripeKey === undefined) !== (stripeHook === undefined))
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together')
  const sandboxSecret = str(env, 'SANDBOX_PAYMENTS_SECRET')
  // The sandbox provider lets any signed-in user credit themselves: never by accident on a
  // public https deployment (docs/security.md "Webhooks and payments").
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:'])
  if (
    sandboxSecret &&
    publicUrl?.startsWith('https:') &&
    oneOf(env, 'SANDBOX_PAYMENTS_ON_HTTPS', ['true', 'false'] as const, 'false') !== 'true'
  )
    throw new ConfigError(
      'SANDBOX_PAYMENTS_SECRET with an https PUBLIC_URL lets every user credit themselves; set SANDBOX_PAYMENTS_ON_HTTPS=true to allow it',
    )
  const adminToken = str(env, 'ADMIN_TOKEN')
  if (adminToken !== undefined && adminToken.length < 16) throw new ConfigError('ADMIN_TOKEN must be at least 16 characters')
  const metricsToken = str(env, 'METRICS_TOKEN')
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters')
  const port = int(env, 'PORT', 8080, 0, 65535)
  const metricsPort = str(env, 'METRICS_PORT') === undefined ? undefined : int(env, 'METRICS_PORT', 0, 0, 65535)
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) throw new ConfigError('METRICS_PORT must differ from PORT')
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:'])
  const redisClusterNodes = clusterNodes(env, 'REDIS_CLUSTER_NODES')
  if (redisUrl && redisClusterNodes) throw new ConfigError('REDIS_URL and REDIS_CLUSTER_NODES exclude each other: set one')
  return {
    port,
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:', 'memory:', 'file:']),
    redisUrl,
    redisClusterNodes,
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'tg:',
    catalogFile: str(env, 'CATALOG_FILE'),
    adminToken,
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 5_000, 0, 300_000),
    dbRequestTimeoutMs: int(env, 'DB_REQUEST_TIMEOUT_MS', 2_000, 100, 60_000),
    redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 1_500, 100, 60_000),
    defaultRpm: int(env, 'DEFAULT_RPM', 600, 1, 1_000_000),
    defaultMaxOutputTokens: int(env, 'DEFAULT_MAX_OUTPUT_TOKENS', 4_096, 1, 1_000_000),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    creditsPerUsd: int(env, 'CREDITS_PER_USD', 1_000, 1, 1_000_000),
    creditSymbol: str(env, 'CREDIT_SYMBOL') ?? 'credits',
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 25_000, 0, 600_000),
    clientIdleMs: int(env, 'CLIENT_IDLE_TIMEOUT_MS', 30_000, 100, 600_000),
    upstreamStreamClient: oneOf(env, 'UPSTREAM_STREAM_CLIENT', ['fetch', 'paced'] as const, 'fetch'),
    settleFlushMs: int(env, 'SETTLE_FLUSH_MS', 50, 0, 10_000),
    settleBatch: int(env, 'SETTLE_BATCH', 500, 1, 10_000),
    requestLogRetentionDays:
      str(env, 'REQUEST_LOG_RETENTION_DAYS') === undefined ? undefined : int(env, 'REQUEST_LOG_RETENTION_DAYS', 0, 1, 36_500),
    topupMinUsd,
    topupMaxUsd,
    publicUrl,
    sessionTtlSeconds: int(env, 'SESSION_TTL_HOURS', 168, 1, 24 * 365) * 3600,
    trustedProxies: ipList(env, 'TRUSTED_PROXIES'),
    stripe:
      stripeKey && stripeHook
        ? { secretKey: stripeKey, webhookSecret: stripeHook, apiBase: url(env, 'STRIPE_API_BASE', ['http:', 'https:']) }
        : undefined,
    sandboxPayments: sandboxSecret ? { secret: sandboxSecret } : undefined,
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
    metricsToken,
    metricsPort,
    otlpEndpoint: url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
    otelServiceName: str(env, 'OTEL_SERVICE_NAME') ?? 'tollgate',
    secret: (ref) => (ref?.startsWith('env:') ? str(env, ref.slice(4)) : ref),
  }
}
