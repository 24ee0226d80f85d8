// Operator roles (docs/operators.md "Admins"): setRole answers the role before and after and runs
// its audit in the same transaction; grantAdminByEmail finds the account by its normalised email.
// Over HTTP: the last admin — demotions and disablings that race each other leave one enabled
// admin, whoever sends them; an admin cannot disable their own account.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq, isNull } from 'drizzle-orm'
import { grantAdminByEmail, LAST_ADMIN, setRole } from '../../src/admin/roles.ts'
import { createUser } from '../../src/billing/accounts.ts'
import { users } from '../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from '../console/helpers.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

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
    // The last enabled admin stays one; with another admin, the demotion goes through.
    await expect(setRole(m.db, u.id, 'user')).rejects.toThrow(LAST_ADMIN)
    const other = await user()
    await setRole(m.db, other.id, 'admin')
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

const token = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

for (const backends of ALL_BACKENDS) {
  describe(`the last admin on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
    }, 30_000)
    afterAll(() => gw.stop())

    const withToken = (path: string, body?: unknown) =>
      gw.request(path, { method: 'POST', headers: token, body: body === undefined ? undefined : JSON.stringify(body) })
    const enabledAdmins = async () =>
      (
        await gw.runtime.deps.db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
      ).map((r) => r.id)
    /** Two fresh admins, and no other enabled admin. */
    const twoAdmins = async (): Promise<[SignedIn, SignedIn]> => {
      const pair = [await signUp(gw), await signUp(gw)] as [SignedIn, SignedIn]
      for (const a of pair) expect((await withToken(`/api/admin/users/${a.id}/role`, { role: 'admin' })).status).toBe(200)
      for (const id of await enabledAdmins())
        if (!pair.some((a) => a.id === id)) expect((await withToken(`/api/admin/users/${id}/role`, { role: 'user' })).status).toBe(200)
      expect((await enabledAdmins()).sort()).toEqual(pair.map((a) => a.id).sort())
      return pair
    }

    test('two admins demoting each other at once: one succeeds, one is 409, one admin is left (6 rounds)', async () => {
      for (let round = 0; round < 6; round++) {
        const [a, b] = await twoAdmins()
        const [ab, ba] = await Promise.all([
          a.post(`/api/admin/users/${b.id}/role`, { role: 'user' }),
          b.post(`/api/admin/users/${a.id}/role`, { role: 'user' }),
        ])
        // The loser is refused by the rule (409) or, when its request reached the gate after the
        // winner committed, as no longer an admin (403).
        const loser = ab.status === 200 ? ba : ab
        expect([ab.status, ba.status]).toContain(200)
        expect([409, 403]).toContain(loser.status)
        if (loser.status === 409) expect((await json(loser)).error).toEqual({ code: 'CONFLICT', message: LAST_ADMIN })
        expect(await enabledAdmins()).toEqual([ab.status === 200 ? a.id : b.id])
      }
    }, 180_000)

    test('a demotion racing a disabling, and the token: never zero enabled admins', async () => {
      for (let round = 0; round < 4; round++) {
        const [a, b] = await twoAdmins()
        const answers = await Promise.all([
          a.post(`/api/admin/users/${b.id}/disable`),
          b.post(`/api/admin/users/${a.id}/role`, { role: 'user' }),
          withToken(`/api/admin/users/${a.id}/disable`),
          withToken(`/api/admin/users/${b.id}/role`, { role: 'user' }),
        ])
        const statuses = answers.map((r) => r.status)
        expect(statuses.filter((s) => s !== 200 && s !== 409 && s !== 403 && s !== 401)).toEqual([])
        expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(3)
        expect(await enabledAdmins()).toHaveLength(1)
      }
    }, 180_000)

    test('the token cannot remove the last admin; an admin cannot disable themselves', async () => {
      const [a, b] = await twoAdmins()
      expect((await a.post(`/api/admin/users/${a.id}/disable`)).status).toBe(409)
      expect((await withToken(`/api/admin/users/${b.id}/disable`)).status).toBe(200)
      const last = await withToken(`/api/admin/users/${a.id}/role`, { role: 'user' })
      expect([last.status, (await json(last)).error]).toEqual([409, { code: 'CONFLICT', message: LAST_ADMIN }])
      expect((await withToken(`/api/admin/users/${a.id}/disable`)).status).toBe(409)
      expect(await enabledAdmins()).toEqual([a.id])
      // Enabling or promoting is never refused by the rule.
      expect((await withToken(`/api/admin/users/${b.id}/enable`)).status).toBe(200)
      expect((await a.post(`/api/admin/users/${b.id}/role`, { role: 'admin' })).status).toBe(200)
    })
  })
}
