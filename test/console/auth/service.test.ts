// Accounts (docs/console.md "Sessions"): registration normalises the email, refuses a
// non-address and a taken email (any case, also when two arrive at once) and stores an argon2id
// hash; a login answers the same 401 for an unknown email, a wrong password, a password-less
// account and a disabled user, and says whether the email is confirmed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createUser } from '../../../src/billing/accounts.ts'
import { register, verifyLogin } from '../../../src/console/auth/service.ts'
import { GatewayError } from '../../../src/core/errors.ts'
import { users } from '../../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const PW = 'correct horse battery'
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => (e instanceof GatewayError ? e.code : String(e)),
  )

describe('accounts on embedded Postgres', () => {
  let m: MemoryDb
  const email = () => `${crypto.randomUUID()}@test.local`
  beforeAll(async () => {
    m = await memoryDb()
  }, 30_000)
  afterAll(() => m.close())

  test('register: trimmed, lower-cased email; argon2id hash; a new user, unverified', async () => {
    const raw = `  Mixed.${crypto.randomUUID()}@Example.COM `
    const me = await register(m.db, { email: raw, password: PW })
    expect(me).toMatchObject({ email: raw.trim().toLowerCase(), role: 'user', verified: false })
    const [row] = await m.db.select().from(users).where(eq(users.id, me.id))
    expect(row!.passwordHash).toStartWith('$argon2id$')
    expect(await Bun.password.verify(PW, row!.passwordHash!)).toBe(true)
  })

  test('register: a non-address is 422; a taken email in any case is 409; at once, one account', async () => {
    expect(await codeOf(register(m.db, { email: 'no-at-sign.test', password: PW }))).toBe('VALIDATION_FAILED')
    expect(await codeOf(register(m.db, { email: 'a b@c.de', password: PW }))).toBe('VALIDATION_FAILED')
    const e = email()
    await register(m.db, { email: e, password: PW })
    expect(await codeOf(register(m.db, { email: e.toUpperCase(), password: PW }))).toBe('CONFLICT')
    const race = email()
    const results = await Promise.all(Array.from({ length: 3 }, () => codeOf(register(m.db, { email: race, password: PW }))))
    expect(results.filter((r) => r === 'ok')).toHaveLength(1)
    expect(results.filter((r) => r === 'CONFLICT')).toHaveLength(2)
    expect(await m.db.select().from(users).where(eq(users.email, race))).toHaveLength(1)
  })

  test('login: the right password in any email case; verified follows the confirmation', async () => {
    const e = email()
    const me = await register(m.db, { email: e, password: PW })
    expect(await verifyLogin(m.db, { email: ` ${e.toUpperCase()}`, password: PW })).toEqual({ ...me, verified: false })
    await m.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, me.id))
    expect((await verifyLogin(m.db, { email: e, password: PW })).verified).toBe(true)
  })

  test('login: unknown email, wrong password, no password, disabled user: the same 401', async () => {
    const e = email()
    const me = await register(m.db, { email: e, password: PW })
    const noPassword = await createUser(m.db, email(), null)
    const answers: string[] = await Promise.all([
      codeOf(verifyLogin(m.db, { email: email(), password: PW })),
      codeOf(verifyLogin(m.db, { email: e, password: `${PW}!` })),
      codeOf(verifyLogin(m.db, { email: noPassword.email, password: PW })),
    ])
    await m.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, me.id))
    answers.push(await codeOf(verifyLogin(m.db, { email: e, password: PW })))
    expect(answers).toEqual(['UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED'])
    const messages = await Promise.all([
      verifyLogin(m.db, { email: email(), password: PW }).catch((x) => x.message),
      verifyLogin(m.db, { email: e, password: PW }).catch((x) => x.message),
    ])
    expect(messages[0]).toBe(messages[1])
  })
})
