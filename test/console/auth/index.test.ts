// POST /api/auth/register, /login, /logout; GET /api/auth/me (docs/console.md "Sessions", "Email
// verification"): sign-up and sign-in set the session cookie, logout ends it server-side and
// clears it; with REQUIRE_EMAIL_VERIFICATION sign-up is 202 without a session and sign-in 403
// until the email is confirmed; unknown body members are refused; the auth attempts limit counts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { AUTH_LIMIT } from '../../../src/console/http/limits.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp } from '../helpers.ts'

const PW = 'correct horse battery'
const CATALOG = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])

describe('auth routes on pglite+memory', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, CATALOG, CONSOLE_ENV)
  }, 60_000)
  afterAll(() => gw.stop())

  test('register 201 signs in; /me answers the user; logout ends the session and clears the cookie', async () => {
    const b = browser(gw)
    const email = `${crypto.randomUUID()}@test.local`
    const res = await b.post('/api/auth/register', { email, password: PW })
    expect(res.status).toBe(201)
    const me = await json(res)
    expect(await json(b.get('/api/auth/me'))).toEqual({ id: me.id, email, role: 'user', verified: false })
    const cookie = b.cookie!
    const out = await b.post('/api/auth/logout')
    expect(await json(out)).toEqual({ ok: true })
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    // The old cookie no longer works anywhere.
    expect((await browser(gw).fetch('/api/auth/me', { headers: { cookie } })).status).toBe(401)
  })

  test('login: 200 with a session for the right password; 401 otherwise; unknown members 422', async () => {
    const u = await signUp(gw)
    const b = browser(gw)
    expect((await b.post('/api/auth/login', { email: u.email, password: 'wrong password' })).status).toBe(401)
    expect(b.cookie).toBeUndefined()
    const ok = await b.post('/api/auth/login', { email: u.email.toUpperCase(), password: PW })
    expect(ok.status).toBe(200)
    expect((await json(b.get('/api/auth/me'))).id).toBe(u.id)
    expect((await browser(gw).post('/api/auth/register', { email: 'x@test.local', password: PW, role: 'admin' })).status).toBe(422)
  })

  test('every auth POST counts against the per-IP attempts limit, refused ones too', async () => {
    const b = browser(gw)
    const statuses: number[] = []
    for (let i = 0; i <= AUTH_LIMIT.limit; i++) statuses.push((await b.post('/api/auth/login', {})).status)
    expect(statuses.slice(0, AUTH_LIMIT.limit).every((s) => s === 422)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
    // The limit is the address's: a sign-in from it is refused too, another address is not.
    expect((await b.post('/api/auth/login', { email: 'nobody@test.local', password: 'x' })).status).toBe(429)
    expect((await browser(gw).post('/api/auth/login', { email: 'nobody@test.local', password: 'x' })).status).toBe(401)
  })
})

describe('auth routes with REQUIRE_EMAIL_VERIFICATION', () => {
  let gw: TestGateway
  const links: string[] = []
  beforeAll(async () => {
    const log = { debug() {}, info() {}, error() {}, warn: (_m: string, f?: any) => void (f?.link && links.push(f.link)) }
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, CATALOG, { ...CONSOLE_ENV, REQUIRE_EMAIL_VERIFICATION: 'true' }, { log })
  }, 60_000)
  afterAll(() => gw.stop())

  test('sign-up is 202 without a session; sign-in is 403 until the link is opened, then 200', async () => {
    const b = browser(gw)
    const email = `${crypto.randomUUID()}@test.local`
    const res = await b.post('/api/auth/register', { email, password: PW })
    expect(res.status).toBe(202)
    expect(await json(res)).toMatchObject({ email, verification: 'operator' })
    expect(b.cookie).toBeUndefined()
    const refused = await b.post('/api/auth/login', { email, password: PW })
    expect(refused.status).toBe(403)
    expect((await json(refused)).error.message).toContain('ask the operator for your link')
    // Without PUBLIC_URL the link is a path; the token is in its fragment.
    const token = links.at(-1)!.split('#token=')[1]!
    expect((await b.post('/api/auth/verify', { token })).status).toBe(200)
    expect((await json(b.get('/api/auth/me'))).verified).toBe(true)
    expect((await browser(gw).post('/api/auth/login', { email, password: PW })).status).toBe(200)
  })
})
