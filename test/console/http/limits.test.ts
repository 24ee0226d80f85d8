// Per-IP limits (docs/console.md "Limits"): auth 30 attempts / 15 min, every /api/* call 120 / min;
// 429 RATE_LIMITED with Retry-After and RateLimit-*; counters in the shared store; client IP
// from X-Forwarded-For only behind trusted proxies. The clock is pinned, so no window boundary
// can fall inside a test.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { limitIp, API_LIMIT } from '../../../src/console/http/limits.ts'
import { createRedisStore } from '../../../src/store/redis.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { freshKeyPrefix, REDIS_URL, describeServices } from '../../helpers/services.ts'
import { browser, CONSOLE_ENV, freshIp, json, signUp } from '../helpers.ts'

const FIFTEEN_MIN = 15 * 60_000
/** 100 s into a 15-minute window (and 40 s into a minute): both windows have room either side. */
const pinnedNow = () => Math.floor(Date.now() / FIFTEEN_MIN) * FIFTEEN_MIN + 100_000

for (const backends of ALL_BACKENDS) {
  describe(`console limits on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let now: number
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
      now = pinnedNow()
      gw.runtime.deps.now = () => now
    })
    afterAll(() => gw.stop())

    test('auth: 30 attempts per 15 minutes per IP, then 429 with Retry-After and RateLimit-*; other IPs unaffected', async () => {
      const u = await signUp(gw)
      const b = browser(gw)
      const attempt = () => b.post('/api/auth/login', { email: u.email, password: 'wrong password' })
      for (let i = 0; i < 30; i++) {
        const res = await attempt()
        expect(res.status).toBe(401)
        expect(res.headers.get('ratelimit-limit')).toBe('30')
        expect(res.headers.get('ratelimit-remaining')).toBe(String(29 - i))
      }
      const limited = await attempt()
      expect(limited.status).toBe(429)
      expect((await json(limited)).error.code).toBe('RATE_LIMITED')
      // 100 s into the window: 800 s left.
      expect(limited.headers.get('retry-after')).toBe('800')
      expect(limited.headers.get('ratelimit-limit')).toBe('30')
      expect(limited.headers.get('ratelimit-remaining')).toBe('0')
      expect(limited.headers.get('ratelimit-reset')).toBe('800')
      // Even the right password and a registration are refused from this address now.
      expect((await b.post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(429)
      expect((await b.post('/api/auth/register', { email: `${crypto.randomUUID()}@t.io`, password: 'long enough pw' })).status).toBe(429)
      // Reads are not attempts; another address is not limited.
      expect((await u.get('/api/auth/me')).status).toBe(200)
      expect((await browser(gw).post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(200)
      // The next window admits again.
      now += FIFTEEN_MIN
      expect((await b.post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(200)
    }, 60_000)

    test('all /api/*: 120 per minute per IP across paths; the 121st is 429; the limit resets with the minute', async () => {
      const b = browser(gw)
      const paths = ['/api/public/models', '/api/auth/me', '/api/wallet/account', '/api/keys']
      const results = await Promise.all(Array.from({ length: 121 }, (_, i) => b.get(paths[i % paths.length]!)))
      const limited = results.filter((r) => r.status === 429)
      expect(limited).toHaveLength(1)
      expect(results.filter((r) => r.status !== 429)).toHaveLength(120)
      expect(limited[0]!.headers.get('ratelimit-limit')).toBe('120')
      expect(limited[0]!.headers.get('retry-after')).toBe(String(60 - ((now / 1000) % 60)))
      const ok = results.find((r) => r.status === 200)!
      expect(ok.headers.get('ratelimit-limit')).toBe('120')
      expect(Number(ok.headers.get('ratelimit-remaining'))).toBeLessThan(120)
      expect((await browser(gw).get('/api/public/models')).status).toBe(200)
      now += 60_000
      expect((await b.get('/api/public/models')).status).toBe(200)
    })

    test('webhooks are not IP-limited: the provider is authenticated by its signature', async () => {
      const b = browser(gw)
      await Promise.all(Array.from({ length: 120 }, () => b.get('/api/public/models')))
      expect((await b.get('/api/public/models')).status).toBe(429)
      const hook = await b.fetch('/api/webhooks/stripe', { method: 'POST', body: '{}' })
      expect(hook.status).toBe(404)
      now += 60_000
    })

    test('a trusted proxy chain: the right-most untrusted hop is the client, whatever it prepends', async () => {
      const client = freshIp()
      const spoofing = (i: number) => browser(gw, `198.51.100.${i}, ${client}`)
      const results = await Promise.all(Array.from({ length: 121 }, (_, i) => spoofing(i % 250).get('/api/public/models')))
      expect(results.filter((r) => r.status === 429)).toHaveLength(1)
      now += 60_000
    })
  })
}

describe('console limits without a trusted proxy', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
    const now = pinnedNow()
    gw.runtime.deps.now = () => now
  })
  afterAll(() => gw.stop())

  test('X-Forwarded-For from an untrusted peer is ignored: the socket address is counted', async () => {
    const results = await Promise.all(Array.from({ length: 121 }, () => browser(gw, freshIp()).get('/api/public/models')))
    expect(results.filter((r) => r.status === 429)).toHaveLength(1)
  })
})

describeServices('console limits across instances', () => {
  test('two instances on one Redis share the per-IP counters', async () => {
    const keys = freshKeyPrefix()
    const a = await createRedisStore(REDIS_URL, { prefix: keys.prefix, shards: 4 })
    const b = await createRedisStore(REDIS_URL, { prefix: keys.prefix, shards: 4 })
    try {
      const now = pinnedNow()
      for (let i = 0; i < 120; i++) await limitIp(i % 2 ? a : b, API_LIMIT, '192.0.2.1', now)
      const refused = await limitIp(a, API_LIMIT, '192.0.2.1', now).catch((e) => e)
      expect(refused.code).toBe('RATE_LIMITED')
      expect(refused.extra.headers['retry-after']).toBe(String(60 - ((now / 1000) % 60)))
      expect((await limitIp(b, API_LIMIT, '192.0.2.2', now))['ratelimit-remaining']).toBe('119')
    } finally {
      await a.close()
      await b.close()
      await keys.clear()
    }
  })
})
