// GET /api/admin/users/:id, /:id/transactions, /:id/logs (docs/operators.md "Users"): the
// operator's view of one user with the same pages and filters as the user's own console; an
// unknown user is a 404 on each; the admin token is required.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { applyMovement } from '../../src/billing/accounts.ts'
import { requestLogs } from '../../src/db/schema/index.ts'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` }

describe('admin user routes on pglite+memory', () => {
  let gw: TestGateway
  let userId: string
  const get = async (path: string, headers: Record<string, string> = auth) => {
    const res = await gw.request(path, { headers })
    return { status: res.status, body: (await res.json()) as any }
  }
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
    const u = await gw.user(0)
    userId = u.userId
    const { db, store } = gw.runtime.deps
    await applyMovement(db, store, { userId, amountMicros: 4_000_000n, kind: 'topup', method: 'sandbox', reference: 'admin-users-1' })
    await applyMovement(db, store, { userId, amountMicros: -1_000_000n, kind: 'adjustment', method: 'admin', reference: 'admin-users-2' })
    await db.insert(requestLogs).values(
      [200, 502].map((status, i) => ({
        id: `req_admin_${i}`,
        userId,
        keyId: u.keyId,
        model: 'acme/chat-1',
        gateway: 'gw-a',
        protocol: 'chat',
        stream: false,
        status,
        usageSource: 'upstream',
        latencyMs: 3,
      })),
    )
  }, 60_000)
  afterAll(() => gw.stop())

  test('the summary: balance in USD, role and state', async () => {
    const { status, body } = await get(`/api/admin/users/${userId}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ id: userId, balance: 3, reserved: 0, role: 'user', disabled: false })
  })

  test("the user's transactions and logs, with the console's filters", async () => {
    const txns = (await get(`/api/admin/users/${userId}/transactions`)).body
    expect(txns.items.map((t: any) => t.amount)).toEqual([-1, 4])
    expect((await get(`/api/admin/users/${userId}/transactions?kind=topup`)).body.items).toHaveLength(1)
    expect((await get(`/api/admin/users/${userId}/logs?status=error`)).body.items.map((l: any) => l.id)).toEqual(['req_admin_1'])
    expect((await get(`/api/admin/users/${userId}/logs?status=nope`)).status).toBe(400)
  })

  test('an unknown user is 404 on each; no token is 401', async () => {
    for (const path of ['', '/transactions', '/logs']) expect((await get(`/api/admin/users/usr_nobody${path}`)).status).toBe(404)
    expect((await get(`/api/admin/users/${userId}`, {})).status).toBe(401)
  })
})
