// Every environment variable Tollgate reads, as one TypeBox schema: name, type, default, bounds
// and meaning (README "Environment" lists the same names). config.ts is its only reader; it
// parses the environment against this schema and adds the rules that span variables.
import { type Static, type TSchema, Type as t } from '@sinclair/typebox'

/** A whole number within bounds; `def` is used when the variable is unset. */
const whole = (def: number, minimum: number, maximum: number, description: string) =>
  t.Integer({ default: def, minimum, maximum, description })

/** A URL whose scheme is one of `protocols` (checked by config.ts: TypeBox has no URL type). */
const url = (protocols: string[], description: string) => t.Optional(t.String({ protocols, description }))

/** Comma-separated entries; each kind of entry is checked by config.ts. */
const list = (description: string) => t.Array(t.String(), { default: [], description })

/** The URL schemes a variable built with `url` accepts, or undefined for other variables. */
export const urlProtocols = (schema: TSchema): string[] | undefined => schema.protocols

export const EnvSchema = t.Object({
  PORT: whole(8080, 0, 65535, 'Port of the main listener (0 = any free port).'),
  HOST: t.String({ default: '0.0.0.0', description: 'Address of the main listener.' }),
  DATABASE_URL: url(
    ['postgres:', 'postgresql:', 'memory:', 'file:'],
    'PostgreSQL URL; unset = embedded PGlite under ./data; memory:// = in-memory PGlite.',
  ),
  REDIS_URL: url(['redis:', 'rediss:'], 'Redis URL; unset = the in-process store (one instance only).'),
  REDIS_CLUSTER_NODES: list('Comma-separated redis:// seed nodes of a Redis/Valkey Cluster; excludes REDIS_URL.'),
  REDIS_PREFIX: t.String({ default: 'tg:', description: 'Prefix of every Redis key: deployments sharing one Redis need different ones.' }),
  REQUEST_LOG_RETENTION_DAYS: t.Optional(
    t.Integer({ minimum: 1, maximum: 36_500, description: 'Request logs older than this are dropped; unset keeps all.' }),
  ),
  CATALOG_FILE: t.Optional(t.String({ description: 'JSON catalog upserted at start.' })),
  ADMIN_TOKEN: t.Optional(t.String({ minLength: 16, description: 'Bearer token of /api/admin; unset = admin API off.' })),
  KEY_CACHE_TTL_MS: whole(5_000, 0, 300_000, 'How long a verified API key is trusted before Postgres is asked again.'),
  DB_REQUEST_TIMEOUT_MS: whole(2_000, 100, 60_000, 'Longest wait of a request for Postgres before a 503.'),
  REDIS_COMMAND_TIMEOUT_MS: whole(1_500, 100, 60_000, 'Longest wait for one Redis command before it fails.'),
  DEFAULT_RPM: whole(600, 1, 1_000_000, 'Requests per 60 s window for keys created without rpm.'),
  DEFAULT_MAX_OUTPUT_TOKENS: whole(4_096, 1, 1_000_000, 'Output tokens reserved when a request names no max tokens.'),
  MAX_BODY_BYTES: whole(4 * 1024 * 1024, 1024, 64 * 1024 * 1024, 'Request body limit of every route.'),
  CREDITS_PER_USD: whole(1_000, 1, 1_000_000, 'Display credits per 1 USD (svc, models shape B).'),
  CREDIT_SYMBOL: t.String({ default: 'credits', description: 'Name of the display credits.' }),
  SHUTDOWN_GRACE_MS: whole(25_000, 0, 600_000, 'How long SIGTERM lets admitted calls finish before the rest is cut.'),
  CLIENT_IDLE_TIMEOUT_MS: whole(30_000, 100, 600_000, 'A streaming client that reads nothing this long is cut.'),
  UPSTREAM_STREAM_CLIENT: t.Optional(
    t.Union([t.Literal('fetch'), t.Literal('paced')], {
      description: 'How streaming upstream bodies are read: paced (no read-ahead; default) or fetch (default when an egress proxy is set).',
    }),
  ),
  MEMORY_SOFT_LIMIT_MB: t.Optional(
    t.Integer({
      minimum: 0,
      maximum: 1_048_576,
      description:
        'Resident size above which full garbage collections run (at most 10 % of the time); unset = half the container memory limit, none without one; 0 = off.',
    }),
  ),
  SETTLE_FLUSH_MS: whole(250, 0, 10_000, 'Ledger writer: how long a partial batch gathers before it is written.'),
  SETTLE_BATCH: whole(500, 1, 10_000, 'Ledger writer: batch size.'),
  TOPUP_MIN_USD: t.Number({ default: 5, minimum: 0.01, maximum: 10_000, description: 'Smallest top-up in USD.' }),
  TOPUP_MAX_USD: t.Number({ default: 10_000, minimum: 0.01, maximum: 10_000, description: 'Largest top-up in USD.' }),
  STRIPE_SECRET_KEY: t.Optional(t.String({ description: 'Enables the stripe provider, with STRIPE_WEBHOOK_SECRET.' })),
  STRIPE_WEBHOOK_SECRET: t.Optional(t.String({ description: 'Signing secret of Stripe webhooks.' })),
  STRIPE_API_BASE: url(['http:', 'https:'], 'Stripe API base URL (tests, proxies).'),
  SANDBOX_PAYMENTS_SECRET: t.Optional(t.String({ description: 'Enables the sandbox provider (development, demo).' })),
  SANDBOX_PAYMENTS_ON_HTTPS: t.Union([t.Literal('true'), t.Literal('false')], {
    default: 'false',
    description: 'true allows the sandbox provider with an https PUBLIC_URL.',
  }),
  LOW_BALANCE_WEBHOOK_URL: url(['http:', 'https:'], 'Operator webhook POSTed (signed) when a user crosses their auto top-up threshold.'),
  LOW_BALANCE_WEBHOOK_SECRET: t.Optional(
    t.String({ minLength: 16, description: 'Signs LOW_BALANCE_WEBHOOK_URL bodies (HMAC-SHA256); required with it.' }),
  ),
  CORS_ORIGINS: list('Comma-separated browser origins (or *) allowed to call /v1; empty = CORS off.'),
  PUBLIC_URL: url(['http:', 'https:'], 'External base URL (checkout links, allowed Origin; https = Secure cookie).'),
  TRUSTED_PROXIES: list('Comma-separated addresses or CIDR blocks whose X-Forwarded-For / -Proto are believed.'),
  SMTP_URL: url(
    ['smtp:', 'smtps:'],
    'Mail server of console emails (password reset, email verification): smtp://user:pass@host:587 (STARTTLS when offered) or smtps:// (TLS); unset = links go to the log.',
  ),
  SMTP_FROM: t.Optional(
    t.String({
      minLength: 3,
      description: 'From address of console emails, e.g. "Tollgate <no-reply@example.com>"; required with SMTP_URL.',
    }),
  ),
  REQUIRE_EMAIL_VERIFICATION: t.Union([t.Literal('true'), t.Literal('false')], {
    default: 'false',
    description: 'true: a console account signs in only after confirming its email by the emailed link.',
  }),
  SESSION_TTL_HOURS: whole(168, 1, 24 * 365, 'Console session lifetime in hours.'),
  LOG_LEVEL: t.Union([t.Literal('debug'), t.Literal('info'), t.Literal('warn'), t.Literal('error')], {
    default: 'info',
    description: 'Least level written (JSON lines on stderr).',
  }),
  METRICS_TOKEN: t.Optional(t.String({ minLength: 16, description: 'Bearer token GET /metrics requires; unset = open.' })),
  METRICS_PORT: t.Optional(t.Integer({ minimum: 0, maximum: 65535, description: '/metrics on its own listener at this port.' })),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(['http:', 'https:'], 'OTLP/HTTP base URL; spans go to <url>/v1/traces; unset = tracing off.'),
  OTEL_SERVICE_NAME: t.String({ default: 'tollgate', description: 'service.name of the exported spans.' }),
})

/** The environment after parsing: typed, defaults filled in. */
export type EnvValues = Static<typeof EnvSchema>
