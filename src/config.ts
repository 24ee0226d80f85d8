// The only reader of the environment. Every variable is described once in config/env-schema.ts
// and parsed against it at start (TypeBox Value), then the rules that span variables are checked
// here; a bad value throws ConfigError naming the variable, and index.ts prints that one line.
import type { TSchema } from '@sinclair/typebox'
import { Value, type ValueError } from '@sinclair/typebox/value'
import { EnvSchema, type EnvValues, urlProtocols } from './config/env-schema.ts'
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
  /** Soft memory limit in bytes (lib/memory-limit.ts); 0 = off; undefined = from the container's limit. */
  memorySoftLimitBytes: number | undefined
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
  /** SMTP of console emails (docs/console.md "Password reset"); undefined → links are written to the log. */
  smtp: { url: string; from: string } | undefined
  /** A console account signs in only once its email is confirmed (docs/console.md "Email verification"). */
  requireEmailVerification: boolean
  /** Lifetime of a console session (cookie and server-side row). */
  sessionTtlSeconds: number
  /** Addresses or CIDR blocks whose X-Forwarded-For / X-Forwarded-Proto are believed. */
  trustedProxies: string[]
  stripe: { secretKey: string; webhookSecret: string; apiBase: string | undefined } | undefined
  sandboxPayments: { secret: string } | undefined
  /** The operator's low-balance webhook (docs/console.md "Auto top-up"). */
  lowBalanceWebhook: { url: string; secret: string } | undefined
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

/**
 * A variable's text as the schema's type. Strict where Value.Convert is lenient: a whole number is
 * digits only (Convert reads "1.5" as 1 and "true" as 1); text that does not convert stays text,
 * so the check names it. Lists are comma-separated, blanks dropped.
 */
function convert(schema: TSchema, raw: string): unknown {
  if (schema.type === 'integer') return /^\d+$/.test(raw) ? Number(raw) : raw
  if (schema.type === 'number') return Number.isFinite(Number(raw)) ? Number(raw) : raw
  if (schema.type === 'array')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  return raw
}

/** The one line for the first variable that does not fit its schema. */
function explain(error: ValueError, raw: Record<string, string>): string {
  const name = error.path.split('/')[1]!
  const { schema, value } = error
  if (schema.type === 'integer')
    return typeof value === 'number'
      ? `${name} must be between ${schema.minimum} and ${schema.maximum}, got ${value}`
      : `${name} must be a whole number, got "${raw[name]}"`
  if (schema.type === 'number') return `${name} must be a number between ${schema.minimum} and ${schema.maximum}, got "${raw[name]}"`
  if (schema.anyOf) return `${name} must be one of ${schema.anyOf.map((s: TSchema) => s.const).join(', ')}, got "${raw[name]}"`
  if (schema.minLength !== undefined) return `${name} must be at least ${schema.minLength} characters`
  return `${name}: ${error.message}`
}

/** The environment parsed against EnvSchema: unset and blank variables take their defaults. */
function parseEnv(env: Env): EnvValues {
  const raw: Record<string, string> = {}
  const values: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(EnvSchema.properties)) {
    const text = env[name]?.trim()
    if (!text) continue
    raw[name] = text
    values[name] = convert(schema, text)
  }
  const parsed = Value.Default(EnvSchema, values)
  if (!Value.Check(EnvSchema, parsed)) throw new ConfigError(explain(Value.Errors(EnvSchema, parsed).First()!, raw))
  for (const [name, schema] of Object.entries(EnvSchema.properties)) {
    const protocols = urlProtocols(schema)
    const value = parsed[name as keyof EnvValues]
    if (protocols && typeof value === 'string') checkUrl(name, value, protocols)
  }
  return parsed
}

function checkUrl(name: string, raw: string, protocols: string[]): void {
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`)
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`)
}

/** Seed nodes of one cluster: redis:// or rediss:// URLs sharing one scheme. */
function clusterNodes(name: string, entries: string[]): string[] | undefined {
  if (entries.length === 0) return undefined
  for (const [i, e] of entries.entries()) checkUrl(`${name}[${i}]`, e, ['redis:', 'rediss:'])
  const schemes = new Set(entries.map((e) => new URL(e).protocol))
  if (schemes.size > 1) throw new ConfigError(`${name} must use one scheme for every node (redis: or rediss:)`)
  return entries
}

function ipList(name: string, entries: string[]): string[] {
  for (const e of entries) if (!parseIpBlock(e)) throw new ConfigError(`${name} must list IP addresses or CIDR blocks, got "${e}"`)
  return entries
}

function origins(name: string, entries: string[]): string[] {
  const lower = entries.map((e) => e.toLowerCase())
  for (const e of lower) {
    if (e === '*') continue
    let u: URL | undefined
    try {
      u = new URL(e)
    } catch {}
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== e)
      throw new ConfigError(`${name} must list origins like https://app.example (or *), got "${e}"`)
  }
  return lower
}

/** An egress proxy Bun's fetch would use; the paced client connects directly (docs/drain.md "Slow clients"). */
const egressProxy = (env: Env): boolean =>
  ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => Boolean(env[name]?.trim()))

export function loadConfig(env: Env = process.env): Config {
  const e = parseEnv(env)
  if (e.TOPUP_MIN_USD > e.TOPUP_MAX_USD) throw new ConfigError('TOPUP_MIN_USD must not exceed TOPUP_MAX_USD')
  if ((e.STRIPE_SECRET_KEY === undefined) !== (e.STRIPE_WEBHOOK_SECRET === undefined))
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together')
  // The sandbox provider lets any signed-in user credit themselves: never by accident on a
  // public https deployment (docs/security.md "Webhooks and payments").
  if (e.SANDBOX_PAYMENTS_SECRET && e.PUBLIC_URL?.startsWith('https:') && e.SANDBOX_PAYMENTS_ON_HTTPS !== 'true')
    throw new ConfigError(
      'SANDBOX_PAYMENTS_SECRET with an https PUBLIC_URL lets every user credit themselves; set SANDBOX_PAYMENTS_ON_HTTPS=true to allow it',
    )
  if ((e.LOW_BALANCE_WEBHOOK_URL === undefined) !== (e.LOW_BALANCE_WEBHOOK_SECRET === undefined))
    throw new ConfigError('LOW_BALANCE_WEBHOOK_URL and LOW_BALANCE_WEBHOOK_SECRET must be set together')
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    throw new ConfigError('METRICS_PORT must differ from PORT')
  if ((e.SMTP_URL === undefined) !== (e.SMTP_FROM === undefined)) throw new ConfigError('SMTP_URL and SMTP_FROM must be set together')
  // Links in emails are built from PUBLIC_URL, never from a request's Host header (which a client chooses).
  if (e.SMTP_URL && !e.PUBLIC_URL) throw new ConfigError('SMTP_URL needs PUBLIC_URL: the links in console emails point there')
  const redisClusterNodes = clusterNodes('REDIS_CLUSTER_NODES', e.REDIS_CLUSTER_NODES)
  if (e.REDIS_URL && redisClusterNodes) throw new ConfigError('REDIS_URL and REDIS_CLUSTER_NODES exclude each other: set one')
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisClusterNodes,
    redisPrefix: e.REDIS_PREFIX,
    catalogFile: e.CATALOG_FILE,
    adminToken: e.ADMIN_TOKEN,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
    dbRequestTimeoutMs: e.DB_REQUEST_TIMEOUT_MS,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    defaultRpm: e.DEFAULT_RPM,
    defaultMaxOutputTokens: e.DEFAULT_MAX_OUTPUT_TOKENS,
    maxBodyBytes: e.MAX_BODY_BYTES,
    creditsPerUsd: e.CREDITS_PER_USD,
    creditSymbol: e.CREDIT_SYMBOL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    clientIdleMs: e.CLIENT_IDLE_TIMEOUT_MS,
    memorySoftLimitBytes: e.MEMORY_SOFT_LIMIT_MB === undefined ? undefined : e.MEMORY_SOFT_LIMIT_MB * 1024 * 1024,
    upstreamStreamClient: e.UPSTREAM_STREAM_CLIENT ?? (egressProxy(env) ? 'fetch' : 'paced'),
    settleFlushMs: e.SETTLE_FLUSH_MS,
    settleBatch: e.SETTLE_BATCH,
    requestLogRetentionDays: e.REQUEST_LOG_RETENTION_DAYS,
    topupMinUsd: e.TOPUP_MIN_USD,
    topupMaxUsd: e.TOPUP_MAX_USD,
    publicUrl: e.PUBLIC_URL,
    sessionTtlSeconds: e.SESSION_TTL_HOURS * 3600,
    smtp: e.SMTP_URL && e.SMTP_FROM ? { url: e.SMTP_URL, from: e.SMTP_FROM } : undefined,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION === 'true',
    trustedProxies: ipList('TRUSTED_PROXIES', e.TRUSTED_PROXIES),
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE }
        : undefined,
    sandboxPayments: e.SANDBOX_PAYMENTS_SECRET ? { secret: e.SANDBOX_PAYMENTS_SECRET } : undefined,
    lowBalanceWebhook:
      e.LOW_BALANCE_WEBHOOK_URL && e.LOW_BALANCE_WEBHOOK_SECRET
        ? { url: e.LOW_BALANCE_WEBHOOK_URL, secret: e.LOW_BALANCE_WEBHOOK_SECRET }
        : undefined,
    corsOrigins: origins('CORS_ORIGINS', e.CORS_ORIGINS),
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelServiceName: e.OTEL_SERVICE_NAME,
    secret: (ref) => (ref?.startsWith('env:') ? env[ref.slice(4)]?.trim() || undefined : ref),
  }
}
