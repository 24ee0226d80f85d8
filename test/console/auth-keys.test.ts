// Accounts, sessions and cookies, per-IP limits with their headers, the same-origin check,
// and the user's API keys.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions } from '../../src/db/schema/index.ts'
import { bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { JSON_HEADERS, signUp } from './helpers.ts'

describe('console accounts and keys (Postgres + Redis)', () => {
  let gw: TestGateway
  let up: FakeUpstream
  let base: string
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
    gw = await startTestGateway({ db: 'postgres', store: 'redis' }, simpleCatalog([{ id: 'gw-a', url: up.url }]), { TRUSTED_PROXIES: '127.0.0.1' })
    base = gw.listen()
  })
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  /** Through the real listener, as the client at `ip` behind our trusted proxy. */
  const fromIp = (ip: string, path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': ip } })

  test('register sets an HttpOnly SameSite=Lax session cookie and stores only its hash', async () => {
    const res = await gw.request('/api/auth/register', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: 'New.User@Example.com', password: 'long enough pw' }) })
    expect(res.status).toBe(201)
    const body = (await res.json()) as any
    expect(body.email).toBe('new.user@example.com')
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/)
    const token = cookie.split(';')[0]!.split('=')[1]!
    const rows = await gw.runtime.deps.db.select().from(sessions).where(eq(sessions.userId, body.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.tokenHash).not.toBe(token)
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    const dup = await gw.request('/api/auth/register', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: 'new.user@example.com', password: 'long enough pw' }) })
    expect(dup.status).toBe(409)
  })

  test('Secure cookie behind TLS (X-Forwarded-Proto from a trusted proxy)', async () => {
    const res = await fetch(`${base}/api/auth/register`, { method: 'POST', headers: { ...JSON_HEADERS, 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.9.9.9' }, body: JSON.stringify({ email: `${crypto.randomUUID()}@t.io`, password: 'long enough pw' }) })
    expect(res.headers.get('set-cookie')).toContain('; Secure')
  })

  test('login: wrong password and unknown email get the same answer; me; logout invalidates server-side', async () => {
    const u = await signUp(gw)
    const wrong = await gw.request('/api/auth/login', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: u.email, password: 'not the password' }) })
    const unknown = await gw.request('/api/auth/login', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }) })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(await wrong.json()).toEqual(await unknown.json())
    const ok = await gw.request('/api/auth/login', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: u.email.toUpperCase(), password: u.password }) })
    expect(ok.status).toBe(200)
    const cookie = ok.headers.get('set-cookie')!.split(';')[0]!
    expect(await (await gw.request('/api/auth/me', { headers: { cookie } })).json()).toEqual({ id: u.id, email: u.email })
    const out = await gw.request('/api/auth/logout', { method: 'POST', headers: { cookie } })
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await gw.request('/api/auth/me', { headers: { cookie } })).status).toBe(401)
    // The other session (from register) still works.
    expect((await gw.request('/api/auth/me', { headers: { cookie: u.cookie } })).status).toBe(200)
  })

  test('auth endpoints: 30 attempts per 15 minutes per IP, then 429 with Retry-After and RateLimit-*', async () => {
    const ip = `10.1.${Math.floor(Math.random() * 250)}.1`
    const attempt = () => fromIp(ip, '/api/auth/login', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: 'x@y.io', password: 'whatever12' }) })
    for (let i = 0; i < 30; i++) expect((await attempt()).status).toBe(401)
    const limited = await attempt()
    expect(limited.status).toBe(429)
    expect(((await limited.json()) as any).error.code).toBe('RATE_LIMITED')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.headers.get('ratelimit-limit')).toBe('30')
    expect(limited.headers.get('ratelimit-remaining')).toBe('0')
    // Another client address is not affected.
    expect((await fromIp('10.2.0.1', '/api/auth/login', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email: 'x@y.io', password: 'whatever12' }) })).status).toBe(401)
  })

  test('all /api/*: 120 requests per minute per IP; X-Forwarded-For from an untrusted peer is ignored', async () => {
    const ip = `10.3.${Math.floor(Math.random() * 250)}.7`
    const results = await Promise.all(Array.from({ length: 121 }, () => fromIp(ip, '/api/public/models')))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(120)
    expect(statuses.filter((s) => s === 429)).toHaveLength(1)
    expect(results.find((r) => r.status === 200)!.headers.get('ratelimit-limit')).toBe('120')
  })

  test('state-changing console calls refuse cross-site requests', async () => {
    const u = await signUp(gw)
    const evil = await gw.request('/api/keys', { method: 'POST', headers: { ...u.headers, origin: 'https://evil.example' }, body: JSON.stringify({ name: 'x' }) })
    expect(evil.status).toBe(403)
    const site = await gw.request('/api/keys', { method: 'POST', headers: { ...u.headers, 'sec-fetch-site': 'cross-site' }, body: JSON.stringify({ name: 'x' }) })
    expect(site.status).toBe(403)
    const same = await gw.request('/api/keys', { method: 'POST', headers: { ...u.headers, origin: 'http://tollgate.test' }, body: JSON.stringify({ name: 'x' }) })
    expect(same.status).toBe(201)
    const list = (await (await gw.request('/api/keys', { headers: u.headers })).json()) as any
    expect(list.items).toHaveLength(1)
  })

  test('keys: secret shown once, works on /v1, list shows prefix/status/spend, revoke refuses it at once', async () => {
    const u = await signUp(gw)
    const created = await gw.request('/api/keys', { method: 'POST', headers: u.headers, body: JSON.stringify({ name: 'ci', limit: 2.5, rpm: 30 }) })
    const key = (await created.json()) as any
    expect(key.key).toMatch(/^sk-/)
    expect(key).toMatchObject({ name: 'ci', status: 'active', limit: 2.5, spent: 0, rpm: 30, prefix: key.key.slice(0, 10) })
    const list = (await (await gw.request('/api/keys', { headers: u.headers })).json()) as any
    expect(JSON.stringify(list)).not.toContain(key.key)
    expect(list.items[0]).toMatchObject({ id: key.id, prefix: key.prefix, status: 'active' })
    // No credit yet → 402 on /v1; the key itself is valid.
    expect((await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key.key), body: chatBody() })).status).toBe(402)
    const other = await signUp(gw)
    expect((await gw.request(`/api/keys/${key.id}`, { method: 'DELETE', headers: other.headers })).status).toBe(404)
    const revoked = await gw.request(`/api/keys/${key.id}`, { method: 'DELETE', headers: u.headers })
    expect(((await revoked.json()) as any).status).toBe('revoked')
    expect((await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key.key), body: chatBody() })).status).toBe(401)
    const past = await gw.request('/api/keys', { method: 'POST', headers: u.headers, body: JSON.stringify({ expiresAt: '2020-01-01T00:00:00Z' }) })
    expect(past.status).toBe(400)
    expect((await gw.request('/api/keys', { headers: {} })).status).toBe(401)
  })
})
