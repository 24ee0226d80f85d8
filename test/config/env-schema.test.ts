// The environment's schema (config/env-schema.ts; README "Environment"): every variable named and
// described, none required, the defaults an empty environment gets, the bounds of whole numbers,
// and the URL schemes each URL variable accepts.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { EnvSchema, urlProtocols } from '../../src/config/env-schema.ts'

const defaults = () => Value.Default(EnvSchema, {}) as Record<string, unknown>

test('the schema describes every variable, and each one with a default or optional parses unset', () => {
  const entries = Object.entries(EnvSchema.properties)
  expect(entries.length).toBeGreaterThan(30)
  for (const [name, schema] of entries) {
    expect({
      name,
      ok: /^[A-Z][A-Z0-9_]+$/.test(name) && typeof schema.description === 'string' && schema.description.length > 10,
    }).toEqual({
      name,
      ok: true,
    })
  }
  // No variable is required: an empty environment starts a single instance.
  expect([...(EnvSchema.required ?? [])] as string[]).toEqual(entries.filter(([, s]) => s.default !== undefined).map(([n]) => n))
})

describe('defaults and bounds', () => {
  test('an empty environment takes the documented defaults and passes the schema', () => {
    const d = defaults()
    expect(Value.Check(EnvSchema, d)).toBe(true)
    expect(d).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      REDIS_PREFIX: 'tg:',
      KEY_CACHE_TTL_MS: 5_000,
      DEFAULT_RPM: 600,
      MAX_BODY_BYTES: 4 * 1024 * 1024,
      SESSION_TTL_HOURS: 168,
      LOG_LEVEL: 'info',
      REQUIRE_EMAIL_VERIFICATION: 'false',
      TRUSTED_PROXIES: [],
      CORS_ORIGINS: [],
    })
    expect(d.DATABASE_URL).toBeUndefined()
    expect(d.ADMIN_TOKEN).toBeUndefined()
  })

  test('whole numbers are refused outside their bounds or with a fraction', () => {
    const with_ = (o: Record<string, unknown>) => Value.Check(EnvSchema, { ...defaults(), ...o })
    expect(with_({ PORT: 0 })).toBe(true)
    expect(with_({ PORT: 65_536 })).toBe(false)
    expect(with_({ DEFAULT_RPM: 0 })).toBe(false)
    expect(with_({ MAX_BODY_BYTES: 1023 })).toBe(false)
    expect(with_({ SESSION_TTL_HOURS: 1.5 })).toBe(false)
    expect(with_({ TOPUP_MIN_USD: 0.001 })).toBe(false)
  })

  test('tokens and secrets have their least length; enumerations their values', () => {
    const with_ = (o: Record<string, unknown>) => Value.Check(EnvSchema, { ...defaults(), ...o })
    expect(with_({ ADMIN_TOKEN: 'x'.repeat(15) })).toBe(false)
    expect(with_({ ADMIN_TOKEN: 'x'.repeat(16) })).toBe(true)
    expect(with_({ METRICS_TOKEN: 'short' })).toBe(false)
    expect(with_({ LOW_BALANCE_WEBHOOK_SECRET: 'x'.repeat(15) })).toBe(false)
    expect(with_({ LOG_LEVEL: 'trace' })).toBe(false)
    expect(with_({ UPSTREAM_STREAM_CLIENT: 'paced' })).toBe(true)
    expect(with_({ UPSTREAM_STREAM_CLIENT: 'curl' })).toBe(false)
  })
})

describe('urlProtocols', () => {
  test('each URL variable names its schemes; other variables none', () => {
    const p = EnvSchema.properties
    expect(urlProtocols(p.DATABASE_URL)).toEqual(['postgres:', 'postgresql:', 'memory:', 'file:'])
    expect(urlProtocols(p.REDIS_URL)).toEqual(['redis:', 'rediss:'])
    expect(urlProtocols(p.SMTP_URL)).toEqual(['smtp:', 'smtps:'])
    expect(urlProtocols(p.PUBLIC_URL)).toEqual(['http:', 'https:'])
    expect(urlProtocols(p.PORT)).toBeUndefined()
    expect(urlProtocols(p.REDIS_CLUSTER_NODES)).toBeUndefined()
  })
})
