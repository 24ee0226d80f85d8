// The only reader of the environment (STYLE.md). Every variable is validated once at start;
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
  /** Requests per 60 s window for keys created without `rpm`. */
  defaultRpm: number
  /** Output tokens reserved when a request names no max_tokens (bounded estimate, SPEC billing 7). */
  defaultMaxOutputTokens: number
  maxBodyBytes: number
  /** Display credits per 1 USD (messages/responses `svc`, catalog shape B). */
  creditsPerUsd: number
  creditSymbol: string
  shutdownGraceMs: number
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
  logLevel: 'debug' | 'info' | 'warn' | 'error'
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
  if (!Number.isFinite(n) || n < min || n > max)
    throw new ConfigError(`${name} must be a number between ${min} and ${max}, got "${raw}"`)
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
  if (!protocols.includes(parsed.protocol))
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`)
  return raw
}

/** Comma-separated redis:// or rediss:// URLs of one cluster's seed nodes, sharing scheme and credentials. */
function clusterNodes(env: Env, name: string): string[] | undefined {
  const entries = (str(env, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  if (entries.length === 0) return undefined
  for (const [i, e] of entries.entries()) url({ [`${name}[${i}]`]: e }, `${name}[${i}]`, ['redis:', 'rediss:'])
  const schemes = new Set(entries.map((e) => new URL(e).protocol))
  if (schemes.size > 1) throw new ConfigError(`${name} must use one scheme for every node (redis: or rediss:)`)
  return entries
}

function ipList(env: Env, name: string): string[] {
  const entries = (str(env, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  for (const e of entries) if (!parseIpBlock(e)) throw new ConfigError(`${name} must list IP addresses or CIDR blocks, got "${e}"`)
  return entries
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = str(env, name)
  if (raw === undefined) return fallback
  if (!(values as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`)
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
  const adminToken = str(env, 'ADMIN_TOKEN')
  if (adminToken !== undefined && adminToken.length < 16)
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters')
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:'])
  const redisClusterNodes = clusterNodes(env, 'REDIS_CLUSTER_NODES')
  if (redisUrl && redisClusterNodes) throw new ConfigError('REDIS_URL and REDIS_CLUSTER_NODES exclude each other: set one')
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:', 'memory:', 'file:']),
    redisUrl,
    redisClusterNodes,
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'tg:',
    catalogFile: str(env, 'CATALOG_FILE'),
    adminToken,
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 5_000, 0, 300_000),
    defaultRpm: int(env, 'DEFAULT_RPM', 600, 1, 1_000_000),
    defaultMaxOutputTokens: int(env, 'DEFAULT_MAX_OUTPUT_TOKENS', 4_096, 1, 1_000_000),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    creditsPerUsd: int(env, 'CREDITS_PER_USD', 1_000, 1, 1_000_000),
    creditSymbol: str(env, 'CREDIT_SYMBOL') ?? 'credits',
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 25_000, 0, 600_000),
    settleFlushMs: int(env, 'SETTLE_FLUSH_MS', 50, 0, 10_000),
    settleBatch: int(env, 'SETTLE_BATCH', 500, 1, 10_000),
    requestLogRetentionDays: str(env, 'REQUEST_LOG_RETENTION_DAYS') === undefined ? undefined : int(env, 'REQUEST_LOG_RETENTION_DAYS', 0, 1, 36_500),
    topupMinUsd,
    topupMaxUsd,
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']),
    sessionTtlSeconds: int(env, 'SESSION_TTL_HOURS', 168, 1, 24 * 365) * 3600,
    trustedProxies: ipList(env, 'TRUSTED_PROXIES'),
    stripe:
      stripeKey && stripeHook
        ? { secretKey: stripeKey, webhookSecret: stripeHook, apiBase: url(env, 'STRIPE_API_BASE', ['http:', 'https:']) }
        : undefined,
    sandboxPayments: sandboxSecret ? { secret: sandboxSecret } : undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
    secret: (ref) => (ref?.startsWith('env:') ? str(env, ref.slice(4)) : ref),
  }
}
