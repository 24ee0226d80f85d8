// Wallet account, keyset pagination of transactions and logs under concurrent inserts, detail
// views, filters, refunds, the public catalog — and the books balance after all of it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { applyMovement } from '../../src/billing/accounts.ts'
import { issueKey } from '../../src/admin/routes.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { signUp } from './helpers.ts'

for (const backends of ALL_BACKENDS) {
  describe(`wallet on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      const catalog = simpleCatalog([{ id: 'gw-a', url: up.url }])
      catalog.models.push(
        { ...catalog.models[0]!, id: 'zeta/big', name: 'Zeta Big', description: 'A LARGE context model', provider: 'zeta', family: 'big', contextWindow: 1_000_000, capabilities: ['text', 'vision'], pricing: { input: 5, output: 15 } },
        { ...catalog.models[0]!, id: 'acme/mini', name: 'Acme Mini', description: "cheap 100% _fast_ model' OR 1=1 --", provider: 'acme', family: 'mini', contextWindow: 8_000, pricing: { input: 0.01, output: 0.02 } },
        { ...catalog.models[0]!, id: 'acme/old', name: 'Old', deprecated: true },
      )
      gw = await startTestGateway(backends, catalog)
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const credit = (userId: string, micros: bigint, ref: string) => applyMovement(gw.runtime.deps.db, gw.runtime.deps.store, { userId, amountMicros: micros, kind: 'adjustment', method: 'test', reference: ref })

    test('transactions page newest first with no duplicates or gaps while entries keep arriving', async () => {
      const u = await signUp(gw)
      for (let i = 0; i < 23; i++) await credit(u.id, BigInt(i + 1), `seed:${u.id}:${i}`)
      const seen: string[] = []
      let cursor: string | null = null
      let inserted = 0
      do {
        const res = await gw.request(`/api/wallet/transactions?limit=5${cursor ? `&cursor=${cursor}` : ''}`, { headers: u.headers })
        expect(res.status).toBe(200)
        const body = (await res.json()) as any
        seen.push(...body.items.map((i: any) => i.id))
        cursor = body.nextCursor
        // New entries land between page reads.
        await Promise.all([credit(u.id, 100n, `live:${u.id}:${inserted++}`), credit(u.id, 100n, `live:${u.id}:${inserted++}`)])
      } while (cursor)
      expect(new Set(seen).size).toBe(seen.length)
      const all = (await (await gw.request('/api/wallet/transactions?limit=100', { headers: u.headers })).json()) as any
      const seeded = all.items.filter((i: any) => i.amount < 0.0001).map((i: any) => i.id)
      expect(seeded).toHaveLength(23)
      for (const id of seeded) expect(seen).toContain(id)
      const createdAt = all.items.map((i: any) => Date.parse(i.createdAt))
      expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt)
    })

    test('filters, limits and bad cursors', async () => {
      const u = await signUp(gw)
      await credit(u.id, 5n, `f:${u.id}`)
      const adj = (await (await gw.request('/api/wallet/transactions?kind=adjustment&status=completed', { headers: u.headers })).json()) as any
      expect(adj.items).toHaveLength(1)
      expect(((await (await gw.request('/api/wallet/transactions?kind=usage', { headers: u.headers })).json()) as any).items).toEqual([])
      expect((await gw.request('/api/wallet/transactions?limit=101', { headers: u.headers })).status).toBe(400)
      expect((await gw.request('/api/wallet/transactions?limit=0', { headers: u.headers })).status).toBe(400)
      expect((await gw.request('/api/wallet/transactions?cursor=bm9wZQ', { headers: u.headers })).status).toBe(400)
      expect((await gw.request('/api/wallet/transactions?kind=gift', { headers: u.headers })).status).toBe(422)
      expect((await gw.request('/api/wallet/transactions')).status).toBe(401)
    })

    test('account, usage detail, request logs and refunds; books balance', async () => {
      const u = await signUp(gw)
      await credit(u.id, 2_000_000n, `acct:${u.id}`)
      const { key } = await issueKey(gw.runtime.deps, { userId: u.id })
      const call = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: chatBody() })
      const requestId = call.headers.get('x-request-id')!
      await gw.settled()
      const account = (await (await gw.request('/api/wallet/account', { headers: u.headers })).json()) as any
      expect(account).toMatchObject({ balance: 1.999779, reserved: 0, available: 1.999779, currency: 'USD', spentThisMonth: 0.000221 })
      const usage = (await (await gw.request('/api/wallet/transactions?kind=usage', { headers: u.headers })).json()) as any
      expect(usage.items).toHaveLength(1)
      const detail = (await (await gw.request(`/api/wallet/transactions/${usage.items[0].id}`, { headers: u.headers })).json()) as any
      expect(detail).toMatchObject({ kind: 'usage', amount: -0.000221, requestId, model: 'acme/chat-1', usage: { inputTokens: 16, outputTokens: 363 } })
      const other = await signUp(gw)
      expect((await gw.request(`/api/wallet/transactions/${usage.items[0].id}`, { headers: other.headers })).status).toBe(404)
      const logs = (await (await gw.request('/api/logs?limit=10', { headers: u.headers })).json()) as any
      expect(logs.items).toHaveLength(1)
      expect(logs.items[0]).toMatchObject({ id: requestId, model: 'acme/chat-1', status: 200, cost: 0.000221, inputTokens: 16 })
      expect(logs.nextCursor).toBeNull()

      const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
      const refundUsage = await gw.request('/api/admin/refunds', { method: 'POST', headers: admin, body: JSON.stringify({ transactionId: usage.items[0].id }) })
      expect(((await refundUsage.json()) as any).amount).toBe(0.000221)
      const over = await gw.request('/api/admin/refunds', { method: 'POST', headers: admin, body: JSON.stringify({ transactionId: usage.items[0].id, amount: 0.000001 }) })
      expect(over.status).toBe(400)
      const refunds = (await (await gw.request('/api/wallet/transactions?kind=refund', { headers: u.headers })).json()) as any
      expect(refunds.items[0]).toMatchObject({ kind: 'refund', status: 'completed', amount: 0.000221 })
      await gw.settled()
      const books = await gw.books(u.id)
      expect(books.balance).toBe(2_000_000n)
      expect(books.ledgerSum).toBe(books.balance)
    })

    test('public catalog: search, filters, sorts, pages, 400s and cache headers', async () => {
      const get = async (qs: string) => {
        const res = await gw.request(`/api/public/models${qs}`)
        return { res, body: (await res.json()) as any }
      }
      const all = await get('?sort=name-asc')
      expect(all.res.headers.get('cache-control')).toContain('s-maxage')
      expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 20, totalPages: 1 })
      expect(all.body.items.map((m: any) => m.name)).toEqual(['Acme Mini', 'Chat 1', 'Zeta Big'])
      expect(all.body.items[2]).toMatchObject({ id: 'zeta/big', provider: 'zeta', family: 'big', contextWindow: 1_000_000, capabilities: ['text', 'vision'], pricing: { input: 5, output: 15 } })
      expect((await get('?q=large')).body.items.map((m: any) => m.id)).toEqual(['zeta/big'])
      expect((await get("?q=' OR 1=1 --")).body.items.map((m: any) => m.id)).toEqual(['acme/mini'])
      expect((await get('?q=%25')).body.items.map((m: any) => m.id)).toEqual(['acme/mini'])
      expect((await get('?q=_')).body.items.map((m: any) => m.id)).toEqual(['acme/mini'])
      expect((await get('?provider=ACME&sort=name-asc')).body.items.map((m: any) => m.id)).toEqual(['acme/mini', 'acme/chat-1'])
      expect((await get('?capability=vision')).body.items.map((m: any) => m.id)).toEqual(['zeta/big'])
      expect((await get('?family=mini')).body.total).toBe(1)
      expect((await get('?sort=price-asc')).body.items.map((m: any) => m.id)).toEqual(['acme/mini', 'acme/chat-1', 'zeta/big'])
      expect((await get('?sort=price-desc')).body.items[0].id).toBe('zeta/big')
      expect((await get('?sort=context-desc')).body.items.map((m: any) => m.id)).toEqual(['zeta/big', 'acme/chat-1', 'acme/mini'])
      const paged = await get('?sort=name-asc&pageSize=2&page=2')
      expect(paged.body).toMatchObject({ total: 3, page: 2, pageSize: 2, totalPages: 2 })
      expect(paged.body.items.map((m: any) => m.id)).toEqual(['zeta/big'])
      // popular = requests in the last 7 days: chat-1 was called in the test above.
      expect((await get('?sort=popular')).body.items[0].id).toBe('acme/chat-1')
      for (const bad of ['?page=0', '?pageSize=0', '?pageSize=101', '?sort=random', '?page=abc']) {
        const { res, body } = await get(bad)
        expect(res.status).toBe(400)
        expect(body.error.code).toBe('BAD_REQUEST')
      }
    })
  })
}
