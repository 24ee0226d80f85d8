// A credit and its audit row commit together (docs/operators.md "Audit log"): when the row cannot
// be written, the credit is undone everywhere — Postgres and the store's hot balance — and the
// caller gets an error, not a silent unaudited movement.
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
  })
}
