// docs/security.md's pure pieces as tables: the safe-text rule, strict dates, the admin token
// check, the negative key cache, the configuration refusals, and the logging of unexpected console
// errors.
import { describe, expect, test } from 'bun:test'
import { bearerMatches as tokenMatches } from '../../src/lib/bearer.ts'
import { ApiKeyAuth, generateApiKey } from '../../src/auth/api-keys.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { parseJsonText } from '../../src/http/body.ts'
import { consoleErrorHook } from '../../src/http/console-error.ts'
import { parseIsoDateTime } from '../../src/lib/dates.ts'
import type { Logger } from '../../src/lib/log.ts'
import { isSafeText, MAX_DEPTH, unsafeTextPath } from '../../src/lib/safe-text.ts'
import { publicJson } from '../../src/protocols/chat/passthrough.ts'

describe('safe text', () => {
  test.each([
    ['plain', 'hello', true],
    ['emoji (a surrogate pair)', 'ok 😀', true],
    ['NUL', 'a\u0000b', false],
    ['lone high surrogate', 'a\ud800', false],
    ['lone low surrogate', '\udc00a', false],
    ['reversed pair', '\ude00\ud83d', false],
  ] as const)('%s', (_, s, ok) => expect(isSafeText(s)).toBe(ok))

  test('unsafeTextPath names the first offending string or member name; depth is bounded without recursion', () => {
    expect(unsafeTextPath({ a: [{ b: 'x' }, { c: 'y\u0000' }] })).toBe('body.a[1].c')
    expect(unsafeTextPath({ 'k\ud800': 1 })).toBe('body')
    expect(unsafeTextPath({ a: 1, b: [true, null, 'fine'] })).toBeUndefined()
    const deep = JSON.parse('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1))
    expect(unsafeTextPath(deep)).toBe('body')
    expect(unsafeTextPath(JSON.parse('['.repeat(MAX_DEPTH - 1) + ']'.repeat(MAX_DEPTH - 1)))).toBeUndefined()
    expect(unsafeTextPath(JSON.parse('['.repeat(50_000) + ']'.repeat(50_000)))).toBe('body')
  })

  test('parseJsonText: escapes are found, an escaped backslash is not an escape', () => {
    expect(() => parseJsonText('{"a":"\\u0000"}')).toThrow(/body\.a/)
    expect(() => parseJsonText('{"a":"\\uD83D"}')).toThrow(/body\.a/)
    expect(parseJsonText('{"a":"\\\\u0000"}')).toEqual({ a: '\\u0000' })
    expect(parseJsonText('{"a":"\\ud83d\\ude00"}')).toEqual({ a: '😀' })
    expect(() => parseJsonText('{')).toThrow(/not valid JSON/)
    expect(() => parseJsonText('')).toThrow(/empty/)
  })
})

describe('strict ISO dates', () => {
  test.each([
    ['2099-02-28T00:00:00Z', '2099-02-28T00:00:00.000Z'],
    ['2096-02-29T23:59:59.5+02:00', '2096-02-29T21:59:59.500Z'],
    ['2030-01-31T10:00Z', '2030-01-31T10:00:00.000Z'],
    ['2099-02-31T00:00:00Z', undefined],
    ['2097-02-29T00:00:00Z', undefined],
    ['2099-04-31T00:00:00Z', undefined],
    ['2099-13-01T00:00:00Z', undefined],
    ['2099-01-01T24:00:00Z', undefined],
    ['2099-01-01T00:60:00Z', undefined],
    ['2099-01-01T00:00:00', undefined],
    ['2099-01-01T00:00:00+25:00', undefined],
    ['2099-01-01', undefined],
    ['1969-12-31T23:59:59Z', undefined],
    ['tomorrow', undefined],
  ] as const)('%s', (text, iso) => expect(parseIsoDateTime(text)?.toISOString()).toBe(iso))
})

describe('admin token', () => {
  const token = 'admin-token-0123456789abcdef'
  test.each([
    ['exact', `Bearer ${token}`, true],
    ['missing', null, false],
    ['no scheme', token, false],
    ['shorter', `Bearer ${token.slice(0, -1)}`, false],
    ['longer', `Bearer ${token}x`, false],
    ['empty', 'Bearer ', false],
    ['very long', `Bearer ${'x'.repeat(100_000)}`, false],
  ] as const)('%s', (_, header, ok) => expect(tokenMatches(token, header)).toBe(ok))
})

describe('unknown keys have their own cache', () => {
  /** A db whose first lookup finds the key and every later one finds nothing (the guesses). */
  function fakeDb() {
    const key = { id: 'key_1', userId: 'u1', limitMicros: null, rpm: null, serviceMode: 'performance', expiresAt: null, revokedAt: null }
    const where = () => ({ limit: async () => (++db.lookups === 1 ? [{ key, disabledAt: null }] : []) })
    const db = {
      lookups: 0,
      select: () => ({ from: () => ({ innerJoin: () => ({ where }) }) }),
    }
    return db
  }

  test('a flood of unknown keys neither evicts a verified key nor reaches Postgres twice per key within the TTL', async () => {
    const good = generateApiKey()
    const db = fakeDb()
    const auth = new ApiKeyAuth(db as any, 60_000, 600)
    expect((await auth.verify(good.secret))?.keyId).toBe('key_1')
    expect(db.lookups).toBe(1)
    const guesses = Array.from({ length: 60_000 }, () => generateApiKey().secret)
    for (const g of guesses) expect(await auth.verify(g)).toBeUndefined()
    const afterFlood = db.lookups
    expect(afterFlood).toBe(1 + guesses.length)
    // The verified key is still cached: no lookup.
    expect((await auth.verify(good.secret))?.keyId).toBe('key_1')
    expect(db.lookups).toBe(afterFlood)
    // A recent miss is answered from the negative cache.
    expect(await auth.verify(guesses.at(-1))).toBeUndefined()
    expect(db.lookups).toBe(afterFlood)
  }, 60_000)
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

describe('console errors', () => {
  test('an unexpected error is a 500 envelope and is logged with the request id; a client error is not logged', async () => {
    const lines: Record<string, unknown>[] = []
    const log: Logger = { debug() {}, info() {}, warn() {}, error: (msg, f) => lines.push({ msg, ...f }) }
    const hook = consoleErrorHook(log)
    const set = { headers: { 'x-request-id': 'req_abc' } as Record<string, unknown> }
    const request = new Request('http://gw.test/api/keys/x', { method: 'DELETE' })
    const res = hook({ code: 'UNKNOWN', error: new Error('invalid byte sequence for encoding "UTF8": 0x00'), set, request })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal error.' } })
    expect(lines).toEqual([expect.objectContaining({ requestId: 'req_abc', path: '/api/keys/x', method: 'DELETE' })])
    expect(String(lines[0]!.err)).toContain('0x00')
    expect(hook({ code: 'NOT_FOUND', error: new Error('nope'), set, request }).status).toBe(404)
    expect(lines).toHaveLength(1)
  })
})

describe('chat members', () => {
  test('publicJson: clean chunks keep their bytes; vendor members are dropped at the top and in choices', () => {
    const clean =
      '{"id":"c","object":"chat.completion.chunk","created":1,"model":"up","system_fingerprint":"fp","obfuscation":"ab","choices":[{"index":0,"delta":{"content":"x","reasoning":"r"},"logprobs":null,"finish_reason":null}]}'
    expect(publicJson(clean, JSON.parse(clean), 'acme/m')).toBe(clean.replace('"up"', '"acme/m"'))
    const vendor =
      '{"id":"c","model":"up","x_groq":{"id":"req_1"},"provider":"P","prompt_filter_results":[],"choices":[{"index":0,"delta":{},"native_finish_reason":"x","content_filter_results":{}}]}'
    expect(JSON.parse(publicJson(vendor, JSON.parse(vendor), 'acme/m'))).toEqual({
      id: 'c',
      model: 'acme/m',
      choices: [{ index: 0, delta: {} }],
    })
  })
})
