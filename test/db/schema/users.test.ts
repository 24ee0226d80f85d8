// users and accounts as migrated: one row per email, defaults for role and balance, an account
// only for an existing user.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accounts, users } from '../../../src/db/schema/users.ts'
import { describeServices } from '../../helpers/services.ts'
import { FOREIGN_KEY_VIOLATION, migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'

describeServices('schema: users', () => {
  const h = migratedDatabase()

  test('a user reads back with role user, no password, unverified, created now', async () => {
    const id = uid('usr')
    const before = Date.now()
    await h.db.insert(users).values({ id, email: `${id}@test.local` })
    const [row] = await h.db.select().from(users).where(eq(users.id, id))
    expect(row).toMatchObject({ id, email: `${id}@test.local`, role: 'user', passwordHash: null, disabledAt: null, emailVerifiedAt: null })
    expect(row!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5_000)
  })

  test('an email is taken once', async () => {
    const email = `${uid('dup')}@test.local`
    await h.db.insert(users).values({ id: uid('usr'), email })
    expect(await sqlState(h.db.insert(users).values({ id: uid('usr'), email }))).toBe(UNIQUE_VIOLATION)
  })

  test('an account belongs to an existing user, starts at 0 USD and holds a balance beyond 2^53 exactly', async () => {
    expect(await sqlState(h.db.insert(accounts).values({ userId: uid('ghost') }))).toBe(FOREIGN_KEY_VIOLATION)
    const id = uid('usr')
    await h.db.insert(users).values({ id, email: `${id}@test.local` })
    await h.db.insert(accounts).values({ userId: id })
    const [fresh] = await h.db.select().from(accounts).where(eq(accounts.userId, id))
    expect(fresh).toMatchObject({ balanceMicros: 0n, currency: 'USD' })
    await h.db.update(accounts).set({ balanceMicros: 9_007_199_254_740_993n }).where(eq(accounts.userId, id))
    const [big] = await h.db.select().from(accounts).where(eq(accounts.userId, id))
    expect(big!.balanceMicros).toBe(9_007_199_254_740_993n)
    expect(await sqlState(h.db.insert(accounts).values({ userId: id }))).toBe(UNIQUE_VIOLATION)
  })
})
