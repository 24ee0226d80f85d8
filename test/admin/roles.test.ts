// The last admin (docs/operators.md "Admins"): demotions and disablings that race each other
// leave one enabled admin, whoever sends them; an admin cannot disable their own account.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq, isNull } from 'drizzle-orm'
import { LAST_ADMIN } from '../../src/admin/roles.ts'
import { users } from '../../src/db/schema/index.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from '../console/helpers.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

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
