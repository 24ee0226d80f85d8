// Password reset and email verification (docs/console.md "Password reset", "Email
// verification"): links point at PUBLIC_URL with the token in the fragment; a reset request for
// an unknown or disabled email mails nothing and answers the same; each mailbox gets at most
// MAIL_LIMIT mails a window; a reset sets the password, proves the email and ends every session;
// a link works once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createUser } from '../../../src/billing/accounts.ts'
import {
  type RecoveryDeps,
  requestReset,
  resetPassword,
  sendVerification,
  verifyEmail,
} from '../../../src/console/auth/recovery-service.ts'
import { createSession, sessionUser } from '../../../src/console/auth/sessions.ts'
import { MAIL_LIMIT } from '../../../src/console/http/limits.ts'
import type { Mail } from '../../../src/console/mail/mailer.ts'
import { GatewayError } from '../../../src/core/errors.ts'
import { users } from '../../../src/db/schema/index.ts'
import { silentLogger } from '../../../src/lib/log.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 27, 12)
const tokenOf = (mail: Mail) => new URL(mail.link).hash.replace('#token=', '')

describe('recovery on embedded Postgres', () => {
  let m: MemoryDb
  let deps: RecoveryDeps
  const mails: Mail[] = []
  const user = () => createUser(m.db, `${crypto.randomUUID()}@test.local`, null)
  const mailsTo = (to: string) => mails.filter((x) => x.to === to)
  beforeAll(async () => {
    m = await memoryDb()
    deps = {
      db: m.db,
      store: m.store,
      log: silentLogger,
      now: () => NOW,
      config: { publicUrl: 'https://gw.example' },
      mailer: { delivery: 'email', send: async (mail) => void mails.push(mail) },
    }
  }, 30_000)
  afterAll(() => m.close())

  test('a reset link goes to the account’s normalised email, at PUBLIC_URL, token in the fragment', async () => {
    const u = await user()
    await requestReset(deps, `  ${u.email.toUpperCase()} `)
    const [mail] = mailsTo(u.email)
    expect(mail!.link).toMatch(/^https:\/\/gw\.example\/console\/reset#token=[A-Za-z0-9_-]{43}$/)
    expect(mail!.text).toContain(mail!.link)
  })

  test('an unknown or disabled email gets no mail, and no error', async () => {
    const before = mails.length
    await requestReset(deps, 'nobody@test.local')
    const u = await user()
    await m.db
      .update(users)
      .set({ disabledAt: new Date(NOW) })
      .where(eq(users.id, u.id))
    await requestReset(deps, u.email)
    expect(mails.length).toBe(before)
  })

  test('at most MAIL_LIMIT mails per mailbox a window, resets and verifications together', async () => {
    const u = await user()
    for (let i = 0; i < MAIL_LIMIT.limit + 2; i++)
      await (i % 2 ? requestReset(deps, u.email) : sendVerification(deps, { id: u.id, email: u.email }))
    expect(mailsTo(u.email)).toHaveLength(MAIL_LIMIT.limit)
  })

  test('reset: new password, email proved, every session ended; the link works once', async () => {
    const u = await user()
    const session = await createSession(m.db, u.id, 3600, NOW)
    await requestReset(deps, u.email)
    const token = tokenOf(mailsTo(u.email).at(-1)!)
    await resetPassword(deps, token, 'a brand new password')
    const [row] = await m.db.select().from(users).where(eq(users.id, u.id))
    expect(await Bun.password.verify('a brand new password', row!.passwordHash!)).toBe(true)
    expect(row!.emailVerifiedAt?.getTime()).toBe(NOW)
    expect(await sessionUser(m.db, session, NOW)).toBeUndefined()
    const again = await resetPassword(deps, token, 'another password').catch((e) => e)
    expect(again).toBeInstanceOf(GatewayError)
    expect(again.code).toBe('BAD_REQUEST')
  })

  test('verify: confirms the email once; a reset token is no verification token', async () => {
    const u = await user()
    await sendVerification(deps, { id: u.id, email: u.email })
    const mail = mailsTo(u.email).at(-1)!
    expect(mail.link).toStartWith('https://gw.example/console/verify#token=')
    await requestReset(deps, u.email)
    const resetToken = tokenOf(mailsTo(u.email).at(-1)!)
    expect((await verifyEmail(deps, resetToken).catch((e) => e)).code).toBe('BAD_REQUEST')
    expect(await verifyEmail(deps, tokenOf(mail))).toEqual({ id: u.id, email: u.email, role: 'user', verified: true, credentialVersion: 0 })
    expect((await verifyEmail(deps, tokenOf(mail)).catch((e) => e)).code).toBe('BAD_REQUEST')
  })

  test('a failing mail server is logged, not thrown: the answer does not depend on it', async () => {
    const logged = Promise.withResolvers<{ msg: string; fields: any }>()
    const failing: RecoveryDeps = {
      ...deps,
      log: { ...silentLogger, error: (msg: string, fields: unknown) => logged.resolve({ msg, fields }) },
      mailer: { delivery: 'email', send: async () => Promise.reject(new Error('smtp down')) },
    }
    const u = await user()
    await requestReset(failing, u.email)
    const { msg, fields } = await logged.promise
    expect(msg).toBe('console email failed')
    expect(fields.to).toBe(u.email)
  })
})
