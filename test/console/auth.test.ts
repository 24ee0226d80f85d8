// Accounts and sessions (docs/console.md "Sessions"): argon2id passwords, normalised emails, hashed
// session tokens with expiry, the svc_session cookie and its attributes, logout server-side, login
// answers that do not reveal whether an email exists, and cross-site refusal — on both backends.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions, users } from '../../src/db/schema/index.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp } from './helpers.ts'

/** A Set-Cookie header's attributes, in a fixed order (Elysia writes them in its own). */
const attributes = (setCookie: string) => setCookie.split('; ').slice(1).sort()

for (const backends of ALL_BACKENDS) {
  describe(`console sessions on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
    }, 60_000)
    afterAll(() => gw.stop())

    test('register: 201, normalised email, argon2id hash, HttpOnly SameSite=Lax cookie whose token is stored only hashed', async () => {
      const b = browser(gw)
      const email = `  New.${crypto.randomUUID()}@Example.COM `
      const res = await b.post('/api/auth/register', { email, password: 'long enough pw' })
      expect(res.status).toBe(201)
      const body = await json(res)
      expect(body.email).toBe(email.trim().toLowerCase())
      const cookie = res.headers.get('set-cookie')!
      // 32 random bytes → 43 base64url characters; no Secure over plain http.
      expect(cookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; /)
      expect(attributes(cookie)).toEqual(['HttpOnly', 'Max-Age=604800', 'Path=/', 'SameSite=Lax'])
      const token = cookie.split(';')[0]!.slice('svc_session='.length)
      const rows = await gw.runtime.deps.db.select().from(sessions).where(eq(sessions.userId, body.id))
      expect(rows).toHaveLength(1)
      expect(rows[0]!.tokenHash).toBe(new Bun.CryptoHasher('sha256').update(token).digest('hex'))
      expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000)
      const [user] = await gw.runtime.deps.db.select().from(users).where(eq(users.id, body.id))
      expect(user!.passwordHash).toStartWith('$argon2id$')
      expect(await json(b.get('/api/auth/me'))).toEqual({ id: body.id, email: body.email, role: 'user', verified: false })
    })

    test('register: a taken email (any case) is 409; concurrent registrations of one email make one account', async () => {
      const u = await signUp(gw)
      const dup = await browser(gw).post('/api/auth/register', { email: u.email.toUpperCase(), password: 'long enough pw' })
      expect(dup.status).toBe(409)
      expect((await json(dup)).error.code).toBe('CONFLICT')
      const email = `race-${crypto.randomUUID()}@test.local`
      const results = await Promise.all(
        Array.from({ length: 4 }, () => browser(gw).post('/api/auth/register', { email, password: 'long enough pw' })),
      )
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409])
      expect(await gw.runtime.deps.db.select().from(users).where(eq(users.email, email))).toHaveLength(1)
    })

    test('register: body schema failures are 422 VALIDATION_FAILED; nothing is created', async () => {
      const b = browser(gw)
      for (const body of [
        { email: 'not-an-email', password: 'long enough pw' },
        { email: 'short@pw.io', password: 'short' },
        { email: 'x@y.io' },
      ]) {
        const res = await b.post('/api/auth/register', body)
        expect(res.status).toBe(422)
        expect((await json(res)).error.code).toBe('VALIDATION_FAILED')
      }
      expect(await gw.runtime.deps.db.select().from(users).where(eq(users.email, 'short@pw.io'))).toHaveLength(0)
      expect(b.cookie).toBeUndefined()
    })

    test('login: a wrong password, an unknown email and a passwordless account get the same 401', async () => {
      const u = await signUp(gw)
      const admin = await gw.user(0)
      const [noPassword] = await gw.runtime.deps.db.select().from(users).where(eq(users.id, admin.userId))
      const answers = await Promise.all(
        [
          { email: u.email, password: 'not the password' },
          { email: `nobody-${crypto.randomUUID()}@example.com`, password: 'not the password' },
          { email: noPassword!.email, password: 'not the password' },
          { email: 'x', password: 'y' },
        ].map(async (creds) => {
          const res = await browser(gw).post('/api/auth/login', creds)
          return { status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie') }
        }),
      )
      for (const a of answers)
        expect(a).toEqual({ status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Invalid email or password.' } }, cookie: null })
    })

    test('login with any email case; me; logout deletes the session server-side and clears the cookie', async () => {
      const u = await signUp(gw)
      const b = browser(gw)
      const ok = await b.post('/api/auth/login', { email: u.email.toUpperCase(), password: u.password })
      expect(ok.status).toBe(200)
      expect(await json(ok)).toEqual({ id: u.id, email: u.email, role: 'user', verified: false })
      const stolen = b.cookie!
      expect(await json(b.get('/api/auth/me'))).toEqual({ id: u.id, email: u.email, role: 'user', verified: false })
      const out = await b.post('/api/auth/logout')
      expect(out.status).toBe(200)
      const cleared = out.headers.get('set-cookie')!
      expect(cleared).toStartWith('svc_session=; ')
      expect(attributes(cleared)).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/', 'SameSite=Lax'])
      // The old cookie is dead everywhere, not just forgotten by this browser.
      const replay = await browser(gw).fetch('/api/auth/me', { headers: { cookie: stolen } })
      expect(replay.status).toBe(401)
      expect((await json(replay)).error.code).toBe('UNAUTHORIZED')
      // The session from registration is another browser's session and still works.
      expect((await u.get('/api/auth/me')).status).toBe(200)
      // Signing in again from one browser replaces its session: the old cookie dies.
      const before = u.cookie!
      expect((await u.post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(200)
      expect(u.cookie).not.toBe(before)
      expect((await browser(gw).fetch('/api/auth/me', { headers: { cookie: before } })).status).toBe(401)
      expect((await u.get('/api/auth/me')).status).toBe(200)
    })

    test('sessions expire: past expires_at the cookie is refused', async () => {
      const u = await signUp(gw)
      await gw.runtime.deps.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.userId, u.id))
      expect((await u.get('/api/auth/me')).status).toBe(401)
      expect((await u.get('/api/wallet/account')).status).toBe(401)
      // Signing in again works and leaves only the live session row behind.
      expect((await u.post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(200)
      const rows = await gw.runtime.deps.db.select().from(sessions).where(eq(sessions.userId, u.id))
      expect(rows).toHaveLength(1)
      expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now())
    })

    test('garbage, oversized and missing cookies are 401 on every signed-in path', async () => {
      for (const cookie of ['svc_session=nope', `svc_session=${'a'.repeat(500)}`, 'svc_session=%E0%A4%A', 'other=1']) {
        for (const path of ['/api/auth/me', '/api/keys', '/api/wallet/account', '/api/wallet/transactions', '/api/logs']) {
          const res = await browser(gw).fetch(path, { headers: { cookie } })
          expect(res.status).toBe(401)
        }
      }
    })

    test('state-changing calls refuse cross-site requests; same-origin and non-browser clients pass', async () => {
      const u = await signUp(gw)
      const post = (headers: Record<string, string>) =>
        u.fetch('/api/keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ name: 'x' }),
        })
      for (const headers of [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: u.base.replace('http:', 'https:') },
      ] as Record<string, string>[]) {
        const res = await post(headers)
        expect(res.status).toBe(403)
        expect((await json(res)).error.code).toBe('FORBIDDEN')
      }
      // A cross-site login or logout is refused too (login CSRF).
      expect(
        (await browser(gw).post('/api/auth/login', { email: u.email, password: u.password }, { origin: 'https://evil.example' })).status,
      ).toBe(403)
      expect((await u.post('/api/auth/logout', undefined, { origin: 'https://evil.example' })).status).toBe(403)
      expect((await u.get('/api/auth/me')).status).toBe(200)
      expect((await post({ origin: u.base })).status).toBe(201)
      expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(201)
      expect((await post({})).status).toBe(201)
      expect((await json(u.get('/api/keys'))).items).toHaveLength(3)
      // A form post (the cross-site kind a browser sends without preflight) is not parsed as JSON.
      const form = await u.fetch('/api/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: u.base },
        body: 'name=x',
      })
      expect(form.status).toBe(415)
    })
  })
}

describe('console cookies behind TLS', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      TRUSTED_PROXIES: '127.0.0.0/8',
    })
  })
  afterAll(() => gw.stop())

  test('Secure when a trusted proxy says X-Forwarded-Proto: https; the https origin is then the same origin', async () => {
    const b = browser(gw)
    const https = b.base.replace('http:', 'https:')
    const res = await b.post(
      '/api/auth/register',
      { email: `${crypto.randomUUID()}@t.io`, password: 'long enough pw' },
      { 'x-forwarded-proto': 'https', origin: https },
    )
    expect(res.status).toBe(201)
    expect(attributes(res.headers.get('set-cookie')!)).toContain('Secure')
    const out = await b.post('/api/auth/logout', undefined, { 'x-forwarded-proto': 'https', origin: https })
    expect(attributes(out.headers.get('set-cookie')!)).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/', 'SameSite=Lax', 'Secure'])
    // Over plain http the same browser gets no Secure flag.
    const plain = await browser(gw).post('/api/auth/register', { email: `${crypto.randomUUID()}@t.io`, password: 'long enough pw' })
    expect(plain.headers.get('set-cookie')).not.toContain('Secure')
  })
})

describe('console cookies from an untrusted peer', () => {
  let gw: TestGateway
  beforeAll(async () => {
    // No trusted proxies: X-Forwarded-* from the socket peer are the client's own claims.
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      TRUSTED_PROXIES: '10.0.0.0/8',
    })
  })
  afterAll(() => gw.stop())

  test('X-Forwarded-Proto from an untrusted peer does not make the cookie Secure', async () => {
    const res = await browser(gw).post(
      '/api/auth/register',
      { email: `${crypto.randomUUID()}@t.io`, password: 'long enough pw' },
      { 'x-forwarded-proto': 'https' },
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('set-cookie')).not.toContain('Secure')
  })

  test('an https PUBLIC_URL makes the cookie Secure and is an allowed origin', async () => {
    const tls = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), {
      PUBLIC_URL: 'https://console.example.com',
    })
    try {
      const b = browser(tls)
      const res = await b.post(
        '/api/auth/register',
        { email: `${crypto.randomUUID()}@t.io`, password: 'long enough pw' },
        { origin: 'https://console.example.com' },
      )
      expect(res.status).toBe(201)
      expect(attributes(res.headers.get('set-cookie')!)).toContain('Secure')
    } finally {
      await tls.stop()
    }
  })
})
