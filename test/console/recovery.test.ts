// Password reset and email verification (docs/console.md "Password reset", "Email verification"):
// links mailed through a local SMTP sink, single-use and expiring tokens stored only hashed, the
// same answer for every email, sessions ended on reset, per-IP and per-email limits, the log
// path without SMTP, and sign-up that waits for the emailed confirmation.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { RESET_TTL_MINUTES, requestReset } from '../../src/console/auth/recovery-service.ts'
import { verifyLogin } from '../../src/console/auth/service.ts'
import { createSession, sessionUser } from '../../src/console/auth/sessions.ts'
import { sessions, userTokens, users } from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/lib/log.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts'
import { until } from '../helpers/until.ts'
import { browser, CONSOLE_ENV, json, signUp } from './helpers.ts'

const PUBLIC_URL = 'http://console.test'
const CATALOG = simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }])
const tokenOf = (text: string, page: string) => new RegExp(`${PUBLIC_URL}/console/${page}#token=([A-Za-z0-9_-]{43})`).exec(text)?.[1]

for (const backends of ALL_BACKENDS) {
  describe(`password reset by email on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let sink: SmtpSink
    beforeAll(async () => {
      sink = await startSmtpSink()
      gw = await startTestGateway(backends, CATALOG, {
        ...CONSOLE_ENV,
        PUBLIC_URL,
        SMTP_URL: sink.url,
        SMTP_FROM: 'Tollgate <no-reply@console.test>',
      })
    }, 60_000)
    afterAll(async () => {
      await gw.stop()
      await sink.stop()
    })

    test('the mailed link works once: new password set, every session ended, the old password refused', async () => {
      const u = await signUp(gw)
      const other = browser(gw)
      expect((await other.post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(200)
      const asked = await browser(gw).post('/api/auth/password/forgot', { email: u.email.toUpperCase() })
      expect(asked.status).toBe(202)
      expect(await json(asked)).toEqual({ delivery: 'email' })

      const mail = await sink.nth(u.email, 1)
      expect(mail.from).toBe('no-reply@console.test')
      expect(mail.subject).toBe('Reset your Tollgate password')
      const token = tokenOf(mail.text, 'reset')!
      expect(token).toBeDefined()
      expect(mail.text).toContain(`for ${RESET_TTL_MINUTES} minutes`)
      // Stored only hashed.
      const [row] = await gw.runtime.deps.db.select().from(userTokens).where(eq(userTokens.userId, u.id))
      expect(row!.tokenHash).toBe(new Bun.CryptoHasher('sha256').update(token).digest('hex'))
      // The link's page is the console's reset page.
      const page = await browser(gw).get('/console/reset')
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])

      const reset = await browser(gw).post('/api/auth/password/reset', { token, password: 'a brand new secret' })
      expect(reset.status).toBe(200)
      expect(await gw.runtime.deps.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0)
      expect((await u.get('/api/auth/me')).status).toBe(401)
      expect((await other.get('/api/auth/me')).status).toBe(401)
      expect((await browser(gw).post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(401)
      expect((await browser(gw).post('/api/auth/login', { email: u.email, password: 'a brand new secret' })).status).toBe(200)

      const again = await browser(gw).post('/api/auth/password/reset', { token, password: 'yet another secret' })
      expect(again.status).toBe(400)
      expect((await json(again)).error).toEqual({
        code: 'BAD_REQUEST',
        message: 'This link is invalid, used or expired; ask for a new one.',
      })
      expect((await browser(gw).post('/api/auth/login', { email: u.email, password: 'a brand new secret' })).status).toBe(200)
    })

    test('sign-ins with the old password racing a reset: none of their sessions works afterwards', async () => {
      const u = await signUp(gw)
      await browser(gw).post('/api/auth/password/forgot', { email: u.email })
      const token = tokenOf((await sink.nth(u.email, 1)).text, 'reset')!
      // 14 sign-ins with the old password, 25 ms apart, the reset sent in the middle.
      const logins: Promise<{ status: number; b: ReturnType<typeof browser> }>[] = []
      let reset: Promise<Response> | undefined
      for (let i = 0; i < 14; i++) {
        if (i === 7) reset = browser(gw).post('/api/auth/password/reset', { token, password: 'a brand new secret' })
        const b = browser(gw)
        logins.push(b.post('/api/auth/login', { email: u.email, password: u.password }).then((r) => ({ status: r.status, b })))
        await Bun.sleep(25)
      }
      expect((await reset!).status).toBe(200)
      const ended = await Promise.all(logins)
      // The first ones verified the old password before the reset: they were answered 200.
      expect(ended.filter((l) => l.status === 200).length).toBeGreaterThan(0)
      for (const l of ended) expect([l.status, (await l.b.get('/api/auth/me')).status]).toEqual([l.status, 401])
      expect((await u.get('/api/auth/me')).status).toBe(401)
    })

    test('a session saved after the reset committed, from a password verified before it, is refused', async () => {
      const u = await signUp(gw)
      await browser(gw).post('/api/auth/password/forgot', { email: u.email })
      const token = tokenOf((await sink.nth(u.email, 1)).text, 'reset')!
      const db = gw.runtime.deps.db
      const now = Date.now()
      // The interleaving the race above hits by chance: verify, then the reset commits, then save.
      const verified = await verifyLogin(db, { email: u.email, password: u.password })
      expect((await browser(gw).post('/api/auth/password/reset', { token, password: 'a brand new secret' })).status).toBe(200)
      const late = await createSession(db, verified.id, 3600, now, verified.credentialVersion)
      expect(await sessionUser(db, late, now)).toBeUndefined()
      // A session of the new password works.
      const fresh = await verifyLogin(db, { email: u.email, password: 'a brand new secret' })
      expect((await sessionUser(db, await createSession(db, fresh.id, 3600, now, fresh.credentialVersion), now))?.id).toBe(u.id)
    })

    if (backends.db === 'postgres')
      test('forgot-password answers before any work on the email: known and unknown alike, with the users table locked', async () => {
        const known = await Promise.all([signUp(gw), signUp(gw), signUp(gw)])
        const unknown = known.map(() => `nobody-${crypto.randomUUID()}@test.local`)
        const db = gw.runtime.deps.db
        // While another transaction holds every row of users, no lookup and no link can happen:
        // every request must still be answered, the same way, for accounts and strangers.
        await db.transaction(async (tx) => {
          await tx.execute(sql`LOCK TABLE users IN ACCESS EXCLUSIVE MODE`)
          const answers = await Promise.all(
            [...known.map((u) => u.email), ...unknown].map(async (email) => {
              const res = await browser(gw).post('/api/auth/password/forgot', { email })
              return [res.status, await res.text()]
            }),
          )
          expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify([202, '{"delivery":"email"}'])]))
          expect(sink.mails.some((m) => known.some((u) => m.to.includes(u.email)))).toBe(false)
        })
        // The work ran after the answers: each account gets its link once the lock is gone.
        for (const u of known) expect(tokenOf((await sink.nth(u.email, 1)).text, 'reset')).toBeDefined()
        expect(sink.mails.some((m) => unknown.some((e) => m.to.includes(e)))).toBe(false)
      })

    test('an unknown email gets the same answer and no mail; a disabled account gets no mail either', async () => {
      const unknown = `nobody-${crypto.randomUUID()}@test.local`
      const res = await browser(gw).post('/api/auth/password/forgot', { email: unknown })
      expect([res.status, await json(res)]).toEqual([202, { delivery: 'email' }])
      // A later mail to a real account arrives; none went to the unknown address.
      const u = await signUp(gw)
      await browser(gw).post('/api/auth/password/forgot', { email: u.email })
      await sink.nth(u.email, 1)
      expect(sink.mails.some((m) => m.to.includes(unknown))).toBe(false)
      // A disabled account gets the same answer and no link.
      const off = await signUp(gw)
      await gw.runtime.deps.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, off.id))
      expect((await browser(gw).post('/api/auth/password/forgot', { email: off.email })).status).toBe(202)
      // The work behind that answer runs later; run the same work here and wait for it to end.
      const sent: string[] = []
      const mailer = { delivery: 'email' as const, send: async (m: { to: string }) => void sent.push(m.to) }
      const { db, store, now } = gw.runtime.deps
      await requestReset({ db, store, now, mailer, log: createLogger('error'), config: { publicUrl: undefined } }, off.email)
      expect(sent).toEqual([])
      expect(await gw.runtime.deps.db.select().from(userTokens).where(eq(userTokens.userId, off.id))).toHaveLength(0)
      // The same work for the account once enabled again does issue a link: the check above could fail.
      await gw.runtime.deps.db.update(users).set({ disabledAt: null }).where(eq(users.id, off.id))
      await requestReset({ db, store, now, mailer, log: createLogger('error'), config: { publicUrl: undefined } }, off.email)
      expect(await gw.runtime.deps.db.select().from(userTokens).where(eq(userTokens.userId, off.id))).toHaveLength(1)
    })

    test('an expired link is refused and changes nothing', async () => {
      const u = await signUp(gw)
      await browser(gw).post('/api/auth/password/forgot', { email: u.email })
      const token = tokenOf((await sink.nth(u.email, 1)).text, 'reset')!
      const realNow = gw.runtime.deps.now
      gw.runtime.deps.now = () => realNow() + (RESET_TTL_MINUTES * 60 + 1) * 1000
      try {
        const res = await browser(gw).post('/api/auth/password/reset', { token, password: 'too late for this' })
        expect(res.status).toBe(400)
      } finally {
        gw.runtime.deps.now = realNow
      }
      expect((await u.get('/api/auth/me')).status).toBe(200)
      expect((await browser(gw).post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(200)
    })

    test('a reset with a short password is 422 and keeps the link usable', async () => {
      const u = await signUp(gw)
      await browser(gw).post('/api/auth/password/forgot', { email: u.email })
      const token = tokenOf((await sink.nth(u.email, 1)).text, 'reset')!
      const short = await browser(gw).post('/api/auth/password/reset', { token, password: 'short' })
      expect(short.status).toBe(422)
      expect((await browser(gw).post('/api/auth/password/reset', { token, password: 'long enough now' })).status).toBe(200)
    })

    test('per email: three mails an hour whoever asks; later requests get the same answer and no new link', async () => {
      const u = await signUp(gw)
      for (let i = 0; i < 5; i++) {
        const res = await browser(gw).post('/api/auth/password/forgot', { email: u.email })
        expect([res.status, await json(res)]).toEqual([202, { delivery: 'email' }])
      }
      await sink.nth(u.email, 3)
      const live = await gw.runtime.deps.db.select().from(userTokens).where(eq(userTokens.userId, u.id))
      expect(live).toHaveLength(3)
    })

    test('per IP: ten reset requests an hour, then 429 with Retry-After', async () => {
      const b = browser(gw)
      for (let i = 0; i < 10; i++)
        expect((await b.post('/api/auth/password/forgot', { email: `n${i}-${crypto.randomUUID()}@test.local` })).status).toBe(202)
      const over = await b.post('/api/auth/password/forgot', { email: `over-${crypto.randomUUID()}@test.local` })
      expect(over.status).toBe(429)
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/)
      expect((await json(over)).error.code).toBe('RATE_LIMITED')
    })
  })
}

describe('without SMTP', () => {
  let gw: TestGateway
  const lines: string[] = []
  beforeAll(async () => {
    const log = createLogger('info', (l) => lines.push(l))
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, CATALOG, { ...CONSOLE_ENV, PUBLIC_URL }, { log })
  }, 60_000)
  afterAll(() => gw.stop())

  test("the link goes to the operator's log and the answer says to ask the operator", async () => {
    const u = await signUp(gw)
    const res = await browser(gw).post('/api/auth/password/forgot', { email: u.email })
    expect([res.status, await json(res)]).toEqual([202, { delivery: 'operator' }])
    // The 202 comes before the work (docs/console.md "Password reset"): the line follows it.
    await until(() => lines.some((l) => JSON.parse(l).to === u.email), 'the link in the log')
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.to === u.email)
    expect(line).toMatchObject({ level: 'warn', msg: 'console email not sent: no SMTP_URL; pass this link to the user' })
    const token = tokenOf(line.link, 'reset')!
    expect((await browser(gw).post('/api/auth/password/reset', { token, password: 'set by the operator link' })).status).toBe(200)
  })
})

describe('REQUIRE_EMAIL_VERIFICATION=true', () => {
  let gw: TestGateway
  let sink: SmtpSink
  beforeAll(async () => {
    sink = await startSmtpSink()
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, CATALOG, {
      ...CONSOLE_ENV,
      PUBLIC_URL,
      SMTP_URL: sink.url,
      SMTP_FROM: 'no-reply@console.test',
      REQUIRE_EMAIL_VERIFICATION: 'true',
    })
  }, 60_000)
  afterAll(async () => {
    await gw.stop()
    await sink.stop()
  })

  test('sign-up mails a link and gives no session; sign-in is refused until the link is opened, which signs in', async () => {
    const b = browser(gw)
    const email = `v-${crypto.randomUUID()}@test.local`
    const res = await b.post('/api/auth/register', { email, password: 'verify me please' })
    expect(res.status).toBe(202)
    const body = await json(res)
    expect(body).toEqual({ id: body.id, email, verification: 'email' })
    expect(b.cookie).toBeUndefined()

    const refused = await b.post('/api/auth/login', { email, password: 'verify me please' })
    expect(refused.status).toBe(403)
    expect((await json(refused)).error.message).toBe(`Confirm your email first: open the link we sent to ${email}.`)
    // A wrong password still gets the plain 401 (no hint that the account exists).
    expect((await b.post('/api/auth/login', { email, password: 'not the password' })).status).toBe(401)

    const first = await sink.nth(email, 1)
    expect(first.subject).toBe('Confirm your email for Tollgate')
    await sink.nth(email, 2) // the refused sign-in sent a fresh link
    const verified = await b.post('/api/auth/verify', { token: tokenOf(first.text, 'verify')! })
    expect(verified.status).toBe(200)
    expect(await json(verified)).toEqual({ id: body.id, email, role: 'user', verified: true })
    expect(await json(b.get('/api/auth/me'))).toEqual({ id: body.id, email, role: 'user', verified: true })
    const [user] = await gw.runtime.deps.db.select().from(users).where(eq(users.id, body.id))
    expect(user!.emailVerifiedAt).toBeInstanceOf(Date)
    // Opening the link consumed every verification link of the user.
    const second = tokenOf((await sink.nth(email, 2)).text, 'verify')!
    expect((await browser(gw).post('/api/auth/verify', { token: second })).status).toBe(400)
    expect((await browser(gw).post('/api/auth/login', { email, password: 'verify me please' })).status).toBe(200)
  })

  test('a reset link also confirms the email', async () => {
    const email = `r-${crypto.randomUUID()}@test.local`
    expect((await browser(gw).post('/api/auth/register', { email, password: 'first password' })).status).toBe(202)
    await browser(gw).post('/api/auth/password/forgot', { email })
    const reset = (await Promise.all([sink.nth(email, 1), sink.nth(email, 2)])).find((m) => m.subject.startsWith('Reset'))!
    const token = tokenOf(reset.text, 'reset')!
    expect((await browser(gw).post('/api/auth/password/reset', { token, password: 'second password' })).status).toBe(200)
    expect((await browser(gw).post('/api/auth/login', { email, password: 'second password' })).status).toBe(200)
  })
})
