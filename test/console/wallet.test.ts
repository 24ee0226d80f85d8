// Wallet account, transactions and request logs (docs/console.md "Wallet", "Request logs"): keyset
// pages with no duplicates or gaps while entries arrive (also entries sharing one created_at),
// filters, detail views, admin refunds — and the books after all of it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { applyMovement } from '../../src/billing/accounts.ts'
import { issueKey } from '../../src/auth/issue-key.ts'
import { ledgerEntries } from '../../src/db/schema/index.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { fixtureJson } from '../helpers/fixtures.ts'
import { CONSOLE_ENV, json, signUp, type SignedIn } from './helpers.ts'

for (const backends of ALL_BACKENDS) {
  describe(`wallet on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: fixtureJson('openai-chat', 'json-text.json') })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]), CONSOLE_ENV)
    })
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    const credit = (userId: string, micros: bigint, ref: string) =>
      applyMovement(gw.runtime.deps.db, gw.runtime.deps.store, {
        userId,
        amountMicros: micros,
        kind: 'adjustment',
        method: 'test',
        reference: ref,
      })
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
    const refund = (body: unknown) => gw.request('/api/admin/refunds', { method: 'POST', headers: admin, body: JSON.stringify(body) })

    async function pageAll(u: SignedIn, path: string, limit: number, between?: () => Promise<unknown>) {
      const seen: any[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const sep = path.includes('?') ? '&' : '?'
        const res = await u.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        expect(res.status).toBe(200)
        const body: any = await res.json()
        expect(body.items.length).toBeLessThanOrEqual(limit)
        seen.push(...body.items)
        cursor = body.nextCursor
        pages++
        await between?.()
      } while (cursor)
      return { seen, pages }
    }

    test('transactions: newest first, no duplicates or gaps while entries keep arriving concurrently', async () => {
      const u = await signUp(gw)
      for (let i = 0; i < 23; i++) await credit(u.id, BigInt(i + 1), `seed:${u.id}:${i}`)
      const before = (await json(u.get('/api/wallet/transactions?limit=100'))).items.map((i: any) => i.id)
      expect(before).toHaveLength(23)
      let n = 0
      const arrivals: Promise<unknown>[] = []
      // Between page reads, and racing them, new entries land.
      const { seen, pages } = await pageAll(u, '/api/wallet/transactions', 5, async () => {
        arrivals.push(credit(u.id, 100n, `live:${u.id}:${n++}`), credit(u.id, 100n, `live:${u.id}:${n++}`))
      })
      await Promise.all(arrivals)
      const ids = seen.map((i) => i.id)
      expect(new Set(ids).size).toBe(ids.length)
      // Every entry that existed when paging began was seen, in the original order.
      expect(ids.filter((id) => before.includes(id))).toEqual(before)
      expect(pages).toBeGreaterThanOrEqual(5)
      const all = (await json(u.get('/api/wallet/transactions?limit=100'))).items
      const times = all.map((i: any) => Date.parse(i.createdAt))
      expect([...times].sort((a, b) => b - a)).toEqual(times)
      await gw.settled()
      const books = await gw.books(u.id)
      expect(books.balance).toBe(books.ledgerSum)
      expect(books.balance).toBe(BigInt((23 * 24) / 2) + BigInt(n) * 100n)
    })

    test('transactions sharing one created_at (one database transaction) page by id without repeats', async () => {
      const u = await signUp(gw)
      await gw.runtime.deps.db.transaction(async (tx) => {
        for (let i = 0; i < 7; i++)
          await tx.insert(ledgerEntries).values({
            id: `txn_same_${u.id.slice(-6)}_${i}`,
            userId: u.id,
            kind: 'adjustment',
            status: 'failed',
            amountMicros: 1n,
            method: 'test',
            reference: `same:${u.id}:${i}`,
          })
      })
      const rows = await gw.runtime.deps.db.execute(
        sql`select count(distinct created_at)::int as n from ledger_entries where user_id = ${u.id}`,
      )
      const distinct = (Array.isArray(rows) ? rows : (rows as { rows: any[] }).rows)[0].n
      expect(distinct).toBe(1)
      const { seen } = await pageAll(u, '/api/wallet/transactions', 3)
      expect(seen.map((i) => i.id)).toEqual(Array.from({ length: 7 }, (_, i) => `txn_same_${u.id.slice(-6)}_${6 - i}`))
    })

    test('filters, limits and cursors: kind/status filter; out-of-range limit, bad kind and forged cursor are 400', async () => {
      const u = await signUp(gw)
      await credit(u.id, 5n, `f:${u.id}`)
      expect((await json(u.get('/api/wallet/transactions?kind=adjustment&status=completed'))).items).toHaveLength(1)
      expect((await json(u.get('/api/wallet/transactions?status=pending'))).items).toEqual([])
      expect((await json(u.get('/api/wallet/transactions?kind=usage'))).items).toEqual([])
      for (const [qs, message] of [
        ['limit=101', 'limit must be an integer from 1 to 100.'],
        ['limit=0', 'limit must be an integer from 1 to 100.'],
        ['limit=abc', 'limit must be an integer from 1 to 100.'],
        ['kind=gift', 'kind must be one of: topup, usage, refund, adjustment.'],
        ['status=done', 'status must be one of: pending, completed, failed.'],
        ['cursor=bm9wZQ', 'cursor is not a cursor this API returned.'],
        ["cursor=' OR 1=1 --", 'cursor is not a cursor this API returned.'],
      ]) {
        const res = await u.get(`/api/wallet/transactions?${qs}`)
        expect(res.status).toBe(400)
        expect(await json(res)).toEqual({ error: { code: 'BAD_REQUEST', message } })
      }
    })

    test('account, usage entry with its calls, request logs naming it, refunds of the call and the entry; books balance', async () => {
      const u = await signUp(gw)
      await credit(u.id, 2_000_000n, `acct:${u.id}`)
      const { key, id: keyId } = await issueKey(gw.runtime.deps, { userId: u.id })
      const call = await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: chatBody() })
      expect(call.status).toBe(200)
      const requestId = call.headers.get('x-request-id')!
      await gw.settled()
      expect(await json(u.get('/api/wallet/account'))).toMatchObject({
        balance: 1.999779,
        reserved: 0,
        available: 1.999779,
        currency: 'USD',
        spentThisMonth: 0.000221,
        pendingTopups: { count: 0, amount: 0 },
      })
      const usage = (await json(u.get('/api/wallet/transactions?kind=usage'))).items
      expect(usage).toHaveLength(1)
      // One entry for the batch's calls of the account (here one call): docs/api.md "Ledger".
      expect(usage[0]).toMatchObject({
        kind: 'usage',
        status: 'completed',
        amount: -0.000221,
        currency: 'USD',
        method: 'api',
        requestId: null,
      })
      const detail = await json(u.get(`/api/wallet/transactions/${usage[0].id}`))
      expect(detail).toMatchObject({ kind: 'usage', amount: -0.000221, calls: 1, refunded: 0 })
      expect(detail.from).toBe(detail.to)
      const other = await signUp(gw)
      expect((await other.get(`/api/wallet/transactions/${usage[0].id}`)).status).toBe(404)
      expect((await u.get('/api/wallet/transactions/txn_nope')).status).toBe(404)

      const logs = await json(u.get('/api/logs?limit=10'))
      expect(logs.nextCursor).toBeNull()
      expect(logs.items).toHaveLength(1)
      expect(logs.items[0]).toMatchObject({
        id: requestId,
        keyId,
        model: 'acme/chat-1',
        gateway: 'gw-a',
        protocol: expect.any(String),
        status: 200,
        cost: 0.000221,
        inputTokens: 16,
        outputTokens: 363,
      })
      expect(logs.items[0].transactionId).toBe(usage[0].id)
      expect(logs.items[0]).not.toHaveProperty('userId')
      // The entry's calls, linked from its detail.
      const calls = await json(u.get(`/api/logs?transactionId=${usage[0].id}`))
      expect(calls.items.map((l: { id: string; cost: number }) => [l.id, l.cost])).toEqual([[requestId, 0.000221]])
      expect((await other.get(`/api/logs?transactionId=${usage[0].id}`)).status).toBe(404)
      expect(JSON.stringify(logs)).not.toContain('upstream-secret')
      expect(await json(u.get(`/api/logs/${requestId}`))).toEqual(logs.items[0])
      expect((await json(u.get(`/api/logs?model=zeta/none`))).items).toEqual([])
      expect((await json(u.get(`/api/logs?keyId=${keyId}`))).items).toHaveLength(1)
      expect((await other.get(`/api/logs/${requestId}`)).status).toBe(404)
      expect((await json(other.get('/api/logs'))).items).toEqual([])

      // Admin refunds: part of the call, as an entry referring to it; then the rest of the entry;
      // never beyond either.
      expect((await refund({ requestId, transactionId: usage[0].id })).status).toBe(400)
      expect((await refund({ requestId: 'req_nope' })).status).toBe(404)
      const ofCall = await refund({ requestId, amount: 0.0002 })
      expect(ofCall.status).toBe(200)
      expect(await json(ofCall)).toMatchObject({ refundOf: usage[0].id, requestId, amount: 0.0002, balance: 1.999979 })
      expect((await refund({ requestId, amount: 0.000022 })).status).toBe(400)
      const refunded = await refund({ transactionId: usage[0].id })
      expect(refunded.status).toBe(200)
      expect(await json(refunded)).toMatchObject({ refundOf: usage[0].id, amount: 0.000021, balance: 2 })
      const over = await refund({ transactionId: usage[0].id, amount: 0.000001 })
      expect(over.status).toBe(400)
      expect((await refund({ requestId, amount: 0.000001 })).status).toBe(400)
      const refunds = (await json(u.get('/api/wallet/transactions?kind=refund'))).items
      expect(refunds.map((r: { amount: number }) => r.amount)).toEqual([0.000021, 0.0002])
      for (const r of refunds) expect(await json(u.get(`/api/wallet/transactions/${r.id}`))).toMatchObject({ refundOf: usage[0].id })
      expect((await json(u.get(`/api/wallet/transactions/${usage[0].id}`))).refunded).toBe(0.000221)
      await gw.settled()
      const books = await gw.books(u.id)
      expect(books).toEqual({ balance: 2_000_000n, ledgerSum: 2_000_000n })
      expect((await json(u.get('/api/wallet/account'))).balance).toBe(2)
    })

    test('refunds of a top-up debit the balance, in parts, never beyond the original; other kinds are refused', async () => {
      const u = await signUp(gw)
      await credit(u.id, 3_000_000n, `adj:${u.id}`)
      const [adj] = (await json(u.get('/api/wallet/transactions'))).items
      expect((await refund({ transactionId: adj.id })).status).toBe(400)
      // A completed top-up, as the webhook leaves it.
      const topupId = `txn_topup_${u.id.slice(-8)}`
      await gw.runtime.deps.db.insert(ledgerEntries).values({
        id: topupId,
        userId: u.id,
        kind: 'topup',
        status: 'completed',
        amountMicros: 10_000_000n,
        method: 'stripe',
        reference: `topup:${topupId}`,
        completedAt: new Date(),
      })
      await gw.runtime.deps.db.execute(sql`update accounts set balance_micros = balance_micros + 10000000 where user_id = ${u.id}`)
      await gw.runtime.deps.store.adjustBalance(u.id, 10_000_000n)
      expect(await json(refund({ transactionId: topupId, amount: 4 }))).toMatchObject({ amount: 4, balance: 9 })
      expect((await refund({ transactionId: topupId, amount: 6.01 })).status).toBe(400)
      expect(await json(refund({ transactionId: topupId }))).toMatchObject({ amount: 6, balance: 3 })
      expect((await refund({ transactionId: topupId })).status).toBe(400)
      expect((await refund({ transactionId: 'txn_nope' })).status).toBe(404)
      expect(
        (
          await gw.request('/api/admin/refunds', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ transactionId: topupId }),
          })
        ).status,
      ).toBe(401)
      const detail = await json(u.get(`/api/wallet/transactions/${topupId}`))
      expect(detail.refunded).toBe(10)
      const refunds = (await json(u.get('/api/wallet/transactions?kind=refund'))).items.map((i: any) => i.amount)
      expect(refunds).toEqual([-6, -4])
      await gw.settled()
      expect(await gw.books(u.id)).toEqual({ balance: 3_000_000n, ledgerSum: 3_000_000n })
      expect((await json(u.get('/api/wallet/account'))).balance).toBe(3)
    })

    test('request logs page like the ledger', async () => {
      const u = await signUp(gw)
      await credit(u.id, 1_000_000n, `logs:${u.id}`)
      const { key } = await issueKey(gw.runtime.deps, { userId: u.id })
      for (let i = 0; i < 5; i++)
        expect((await gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(key), body: chatBody() })).status).toBe(200)
      await gw.settled()
      const { seen, pages } = await pageAll(u, '/api/logs', 2)
      expect(pages).toBe(3)
      expect(new Set(seen.map((l) => l.id)).size).toBe(5)
      expect((await u.get('/api/logs?limit=500')).status).toBe(400)
    })
  })
}
