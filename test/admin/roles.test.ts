// Operator roles (docs/operators.md "Admins"): setRole answers the role before and after and runs
// its audit in the same transaction; grantAdminByEmail finds the account by its normalised email.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { grantAdminByEmail, setRole } from '../../src/admin/roles.ts'
import { createUser } from '../../src/billing/accounts.ts'
import { users } from '../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

describe('roles on embedded Postgres', () => {
  let m: MemoryDb
  const user = () => createUser(m.db, `${crypto.randomUUID()}@test.local`, null)
  const roleOf = async (id: string) => (await m.db.select({ r: users.role }).from(users).where(eq(users.id, id)))[0]?.r
  beforeAll(async () => {
    m = await memoryDb()
  }, 30_000)
  afterAll(() => m.close())

  test('setRole: before and after; the audit hook sees the role before', async () => {
    const u = await user()
    const seen: string[] = []
    expect(await setRole(m.db, u.id, 'admin', async (_tx, before) => void seen.push(before))).toEqual({ before: 'user', after: 'admin' })
    expect(await roleOf(u.id)).toBe('admin')
    expect(await setRole(m.db, u.id, 'admin')).toEqual({ before: 'admin', after: 'admin' })
    expect(await setRole(m.db, u.id, 'user')).toEqual({ before: 'admin', after: 'user' })
    expect(seen).toEqual(['user'])
  })

  test('setRole: an unknown user is undefined; a failing audit leaves the role as it was', async () => {
    expect(await setRole(m.db, 'usr_nobody', 'admin')).toBeUndefined()
    const u = await user()
    await expect(setRole(m.db, u.id, 'admin', async () => Promise.reject(new Error('audit down')))).rejects.toThrow('audit down')
    expect(await roleOf(u.id)).toBe('user')
  })

  test('grantAdminByEmail: any case and spacing of the email; undefined without an account', async () => {
    const u = await user()
    expect(await grantAdminByEmail(m.db, `  ${u.email.toUpperCase()} `)).toEqual({ id: u.id, email: u.email })
    expect(await roleOf(u.id)).toBe('admin')
    expect(await grantAdminByEmail(m.db, 'nobody@test.local')).toBeUndefined()
  })
})
