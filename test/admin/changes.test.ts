// A change and its audit row commit together (docs/operators.md "Audit log"): when the row cannot
// be written, a credit is undone everywhere — Postgres and the store's hot balance — a disable or
// a revocation or a key change does not happen, and the caller gets an error, not a silent unaudited change.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ADMIN_TOKEN, ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const token = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

for (const backends of ALL_BACKENDS) {
  describe(`audited changes on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    beforeAll(async () => {
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
    }, 30_000)
    afterAll(() => gw.stop())

    const credit = (userId: string, amount: number) =>
      gw.request(`/api/admin/users/${userId}/credits`, { method: 'POST', headers: token, body: JSON.stringify({ amount }) })

    test('a credit whose audit row cannot be written moves no money', async () => {
      const u = await gw.user(1)
      const db = gw.runtime.deps.db
      await db.execute(sql`alter table admin_audit rename to admin_audit_away`)
      try {
        expect((await credit(u.userId, 5)).status).toBeGreaterThanOrEqual(500)
      } finally {
        await db.execute(sql`alter table admin_audit_away rename to admin_audit`)
      }
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n, ledgerSum: 1_000_000n })
      // The hot balance forgot the undone move: the next credit starts from $1.
      expect(await (await credit(u.userId, 1)).json()).toEqual({ balance: 2 })
    })

    test('a disable or revocation whose audit row cannot be written changes nothing', async () => {
      const u = await gw.user(1)
      const db = gw.runtime.deps.db
      const send = (method: string, path: string) => gw.request(path, { method, headers: token })
      await db.execute(sql`alter table admin_audit rename to admin_audit_away`)
      try {
        expect((await send('POST', `/api/admin/users/${u.userId}/disable`)).status).toBeGreaterThanOrEqual(500)
        expect((await send('DELETE', `/api/admin/keys/${u.keyId}`)).status).toBeGreaterThanOrEqual(500)
      } finally {
        await db.execute(sql`alter table admin_audit_away rename to admin_audit`)
      }
      const user = (await (await send('GET', `/api/admin/users/${u.userId}`)).json()) as { disabled: boolean }
      expect(user.disabled).toBe(false)
      const keys = (await (await send('GET', `/api/admin/users/${u.userId}/keys`)).json()) as { items: { revokedAt: string | null }[] }
      expect(keys.items.map((k) => k.revokedAt)).toEqual([null])
    })

    test('a key change is audited with the members it set; without its audit row it does not happen', async () => {
      const u = await gw.user(1)
      const db = gw.runtime.deps.db
      const patch = (body: object) =>
        gw.request(`/api/admin/keys/${u.keyId}`, { method: 'PATCH', headers: token, body: JSON.stringify(body) })
      const keyName = async () => {
        const keys = await gw.request(`/api/admin/users/${u.userId}/keys`, { headers: token })
        return ((await keys.json()) as { items: { name: string }[] }).items[0]!.name
      }
      const before = await keyName()
      await db.execute(sql`alter table admin_audit rename to admin_audit_away`)
      try {
        expect((await patch({ name: 'lost' })).status).toBeGreaterThanOrEqual(500)
      } finally {
        await db.execute(sql`alter table admin_audit_away rename to admin_audit`)
      }
      expect(await keyName()).toBe(before)
      expect((await patch({ name: 'renamed', rpm: 7 })).status).toBe(200)
      expect(await keyName()).toBe('renamed')
      const audit = await gw.request(`/api/admin/audit?target=${u.keyId}`, { headers: token })
      const rows = ((await audit.json()) as { items: { action: string; actor: string; after: unknown }[] }).items
      expect(rows.map((r) => [r.action, r.actor, r.after])).toEqual([['key.update', 'token', { name: 'renamed', rpm: 7 }]])
    })
  })
}
