// The environment schema and its parser: defaults, one clear line per bad value naming the
// variable, the rules that span variables, and a schema that describes every variable.
import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../src/config.ts'

describe('defaults', () => {
  test('an empty environment gives the documented defaults', () => {
    const c = loadConfig({})
    expect({
      port: c.port,
      host: c.host,
      databaseUrl: c.databaseUrl,
      redisUrl: c.redisUrl,
      redisClusterNodes: c.redisClusterNodes,
      redisPrefix: c.redisPrefix,
      adminToken: c.adminToken,
      keyCacheTtlMs: c.keyCacheTtlMs,
      dbRequestTimeoutMs: c.dbRequestTimeoutMs,
      redisCommandTimeoutMs: c.redisCommandTimeoutMs,
      defaultRpm: c.defaultRpm,
      defaultMaxOutputTokens: c.defaultMaxOutputTokens,
      maxBodyBytes: c.maxBodyBytes,
      creditsPerUsd: c.creditsPerUsd,
      creditSymbol: c.creditSymbol,
      shutdownGraceMs: c.shutdownGraceMs,
      clientIdleMs: c.clientIdleMs,
      upstreamStreamClient: c.upstreamStreamClient,
      memorySoftLimitBytes: c.memorySoftLimitBytes,
      settleFlushMs: c.settleFlushMs,
      settleBatch: c.settleBatch,
      requestLogRetentionDays: c.requestLogRetentionDays,
      topupMinUsd: c.topupMinUsd,
      topupMaxUsd: c.topupMaxUsd,
      sessionTtlSeconds: c.sessionTtlSeconds,
      trustedProxies: c.trustedProxies,
      stripe: c.stripe,
      sandboxPayments: c.sandboxPayments,
      corsOrigins: c.corsOrigins,
      logLevel: c.logLevel,
      metricsPort: c.metricsPort,
      otelServiceName: c.otelServiceName,
    }).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      redisUrl: undefined,
      redisClusterNodes: undefined,
      redisPrefix: 'tg:',
      adminToken: undefined,
      keyCacheTtlMs: 5_000,
      dbRequestTimeoutMs: 2_000,
      redisCommandTimeoutMs: 1_500,
      defaultRpm: 600,
      defaultMaxOutputTokens: 4_096,
      maxBodyBytes: 4 * 1024 * 1024,
      creditsPerUsd: 1_000,
      creditSymbol: 'credits',
      shutdownGraceMs: 25_000,
      clientIdleMs: 30_000,
      upstreamStreamClient: 'paced',
      memorySoftLimitBytes: undefined,
      settleFlushMs: 250,
      settleBatch: 500,
      requestLogRetentionDays: undefined,
      topupMinUsd: 5,
      topupMaxUsd: 10_000,
      sessionTtlSeconds: 168 * 3600,
      trustedProxies: [],
      stripe: undefined,
      sandboxPayments: undefined,
      corsOrigins: [],
      logLevel: 'info',
      metricsPort: undefined,
      otelServiceName: 'tollgate',
    })
  })

  test('streams are paced unless an egress proxy is set (Bun’s fetch honours it; the paced client does not), and a set value wins', () => {
    expect(loadConfig({ HTTPS_PROXY: 'http://proxy:3128' }).upstreamStreamClient).toBe('fetch')
    expect(loadConfig({ http_proxy: 'http://proxy:3128' }).upstreamStreamClient).toBe('fetch')
    expect(loadConfig({ HTTPS_PROXY: ' ' }).upstreamStreamClient).toBe('paced')
    expect(loadConfig({ HTTPS_PROXY: 'http://proxy:3128', UPSTREAM_STREAM_CLIENT: 'paced' }).upstreamStreamClient).toBe('paced')
    expect(loadConfig({ MEMORY_SOFT_LIMIT_MB: '0' }).memorySoftLimitBytes).toBe(0)
    expect(loadConfig({ MEMORY_SOFT_LIMIT_MB: '256' }).memorySoftLimitBytes).toBe(256 * 1024 * 1024)
  })

  test('blank and space-padded values: blank is unset, the rest is trimmed', () => {
    const c = loadConfig({ PORT: '  ', HOST: ' ::1 ', MAX_BODY_BYTES: ' 2048 ', ADMIN_TOKEN: '', LOG_LEVEL: ' warn ' })
    expect([c.port, c.host, c.maxBodyBytes, c.adminToken, c.logLevel]).toEqual([8080, '::1', 2048, undefined, 'warn'])
  })

  test('set values are converted to their types', () => {
    const c = loadConfig({
      PORT: '0',
      TOPUP_MIN_USD: '0.5',
      SESSION_TTL_HOURS: '2',
      REQUEST_LOG_RETENTION_DAYS: '30',
      METRICS_PORT: '9100',
      UPSTREAM_STREAM_CLIENT: 'fetch',
      STRIPE_SECRET_KEY: 'sk',
      STRIPE_WEBHOOK_SECRET: 'wh',
      STRIPE_API_BASE: 'http://127.0.0.1:1',
    })
    expect([c.port, c.topupMinUsd, c.sessionTtlSeconds, c.requestLogRetentionDays, c.metricsPort, c.upstreamStreamClient]).toEqual([
      0,
      0.5,
      7200,
      30,
      9100,
      'fetch',
    ])
    expect(c.stripe).toEqual({ secretKey: 'sk', webhookSecret: 'wh', apiBase: 'http://127.0.0.1:1' })
  })

  test('secret references: env:NAME reads the environment (trimmed, blank = unset); anything else is literal', () => {
    const c = loadConfig({ GW_KEY: ' k1 ', BLANK: ' ' })
    expect([c.secret('env:GW_KEY'), c.secret('env:BLANK'), c.secret('env:NEVER'), c.secret('literal'), c.secret(undefined)]).toEqual([
      'k1',
      undefined,
      undefined,
      'literal',
      undefined,
    ])
  })
})

describe('a bad value is one ConfigError naming the variable and what it must be', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT must be a whole number, got "abc"'],
    [{ PORT: '1.5' }, 'PORT must be a whole number, got "1.5"'],
    [{ PORT: 'true' }, 'PORT must be a whole number, got "true"'],
    [{ PORT: '-1' }, 'PORT must be a whole number, got "-1"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ MAX_BODY_BYTES: '10' }, 'MAX_BODY_BYTES must be between 1024 and 67108864, got 10'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT must be a whole number, got "nine"'],
    [{ REQUEST_LOG_RETENTION_DAYS: '0' }, 'REQUEST_LOG_RETENTION_DAYS must be between 1 and 36500, got 0'],
    [{ TOPUP_MIN_USD: 'five' }, 'TOPUP_MIN_USD must be a number between 0.01 and 10000, got "five"'],
    [{ TOPUP_MAX_USD: '20000' }, 'TOPUP_MAX_USD must be a number between 0.01 and 10000, got "20000"'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of debug, info, warn, error, got "verbose"'],
    [{ UPSTREAM_STREAM_CLIENT: 'curl' }, 'UPSTREAM_STREAM_CLIENT must be one of fetch, paced, got "curl"'],
    [{ SANDBOX_PAYMENTS_ON_HTTPS: 'yes' }, 'SANDBOX_PAYMENTS_ON_HTTPS must be one of true, false, got "yes"'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 16 characters'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL, got "not a url"'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL must use postgres: or postgresql: or memory: or file:, got "mysql:"'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must use redis: or rediss:, got "http:"'],
    [{ SMTP_URL: 'https://mail.example' }, 'SMTP_URL must use smtp: or smtps:, got "https:"'],
    [{ REQUIRE_EMAIL_VERIFICATION: 'yes' }, 'REQUIRE_EMAIL_VERIFICATION must be one of true, false, got "yes"'],
    [{ PUBLIC_URL: 'gw.example' }, 'PUBLIC_URL must be a URL, got "gw.example"'],
    [{ REDIS_CLUSTER_NODES: 'redis://a:7000, nope' }, 'REDIS_CLUSTER_NODES[1] must be a URL, got "nope"'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8, proxy' }, 'TRUSTED_PROXIES must list IP addresses or CIDR blocks, got "proxy"'],
    [
      { CORS_ORIGINS: 'https://App.example/path' },
      'CORS_ORIGINS must list origins like https://app.example (or *), got "https://app.example/path"',
    ],
  ]
  for (const [env, message] of cases)
    test(message, () => {
      expect(() => loadConfig(env)).toThrow(ConfigError)
      expect(() => loadConfig(env)).toThrow(message)
    })
})

describe('rules that span variables', () => {
  const cases: [Record<string, string>, string][] = [
    [{ TOPUP_MIN_USD: '50', TOPUP_MAX_USD: '10' }, 'TOPUP_MIN_USD must not exceed TOPUP_MAX_USD'],
    [{ STRIPE_SECRET_KEY: 'sk' }, 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together'],
    [{ STRIPE_WEBHOOK_SECRET: 'wh' }, 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together'],
    [
      { LOW_BALANCE_WEBHOOK_URL: 'https://ops.example/hook' },
      'LOW_BALANCE_WEBHOOK_URL and LOW_BALANCE_WEBHOOK_SECRET must be set together',
    ],
    [{ LOW_BALANCE_WEBHOOK_URL: 'ftp://ops.example/hook', LOW_BALANCE_WEBHOOK_SECRET: 'x'.repeat(16) }, 'LOW_BALANCE_WEBHOOK_URL'],
    [{ PORT: '9100', METRICS_PORT: '9100' }, 'METRICS_PORT must differ from PORT'],
    [{ REDIS_URL: 'redis://a:6379', REDIS_CLUSTER_NODES: 'redis://a:7000' }, 'REDIS_URL and REDIS_CLUSTER_NODES exclude each other'],
    [{ REDIS_CLUSTER_NODES: 'redis://a:7000,rediss://b:7001' }, 'REDIS_CLUSTER_NODES must use one scheme for every node'],
    [{ SANDBOX_PAYMENTS_SECRET: 's', PUBLIC_URL: 'https://gw.example' }, 'set SANDBOX_PAYMENTS_ON_HTTPS=true to allow it'],
    [{ SMTP_URL: 'smtp://mail:587', PUBLIC_URL: 'https://gw.example' }, 'SMTP_URL and SMTP_FROM must be set together'],
    [{ SMTP_FROM: 'no-reply@gw.example' }, 'SMTP_URL and SMTP_FROM must be set together'],
    [{ SMTP_URL: 'smtp://mail:587', SMTP_FROM: 'no-reply@gw.example' }, 'SMTP_URL needs PUBLIC_URL'],
  ]
  for (const [env, message] of cases)
    test(message, () => {
      expect(() => loadConfig(env)).toThrow(ConfigError)
      expect(() => loadConfig(env)).toThrow(message)
    })

  test('SMTP: both variables and PUBLIC_URL give the mail settings; unset means links go to the log', () => {
    const c = loadConfig({ SMTP_URL: 'smtps://u:p@mail:465', SMTP_FROM: 'no-reply@gw.example', PUBLIC_URL: 'https://gw.example' })
    expect(c.smtp).toEqual({ url: 'smtps://u:p@mail:465', from: 'no-reply@gw.example' })
    expect([loadConfig({}).smtp, loadConfig({}).requireEmailVerification]).toEqual([undefined, false])
    expect(loadConfig({ REQUIRE_EMAIL_VERIFICATION: 'true' }).requireEmailVerification).toBe(true)
  })

  test('the same variables pass when the rule holds', () => {
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).metricsPort).toBe(0)
    expect(loadConfig({ TOPUP_MIN_USD: '10', TOPUP_MAX_USD: '10' }).topupMaxUsd).toBe(10)
    expect(loadConfig({ SANDBOX_PAYMENTS_SECRET: 's', PUBLIC_URL: 'http://localhost:8080' }).sandboxPayments).toEqual({ secret: 's' })
    const hook = { LOW_BALANCE_WEBHOOK_URL: 'https://ops.example/hook', LOW_BALANCE_WEBHOOK_SECRET: 'x'.repeat(16) }
    expect(loadConfig(hook).lowBalanceWebhook).toEqual({ url: hook.LOW_BALANCE_WEBHOOK_URL, secret: hook.LOW_BALANCE_WEBHOOK_SECRET })
    expect(loadConfig({}).lowBalanceWebhook).toBeUndefined()
  })
})

describe('configuration refusals', () => {
  test('the sandbox provider on an https PUBLIC_URL needs SANDBOX_PAYMENTS_ON_HTTPS=true', () => {
    const env = { SANDBOX_PAYMENTS_SECRET: 'sandbox-secret', PUBLIC_URL: 'https://gw.example' }
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(/SANDBOX_PAYMENTS_ON_HTTPS/)
    expect(loadConfig({ ...env, SANDBOX_PAYMENTS_ON_HTTPS: 'true' }).sandboxPayments).toEqual({ secret: 'sandbox-secret' })
    expect(loadConfig({ ...env, PUBLIC_URL: 'http://localhost:8080' }).sandboxPayments).toBeDefined()
    expect(() => loadConfig({ ...env, SANDBOX_PAYMENTS_ON_HTTPS: 'yes' })).toThrow(ConfigError)
  })

  test('CORS_ORIGINS: off by default; origins or *; anything else refused', () => {
    expect(loadConfig({}).corsOrigins).toEqual([])
    expect(loadConfig({ CORS_ORIGINS: 'https://App.example, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example',
      'http://localhost:5173',
    ])
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*'])
    for (const bad of ['app.example', 'https://app.example/path', 'ftp://x.example', 'https://app.example/'])
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(ConfigError)
  })
})
