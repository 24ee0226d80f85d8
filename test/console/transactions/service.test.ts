// The user's ledger (docs/console.md "Wallet"): only their own entries, newest first in keyset
// pages, filters kind and status, signed USD amounts; one entry's detail with its kind's members:
// usage its model and tokens and what was refunded of it, a refund what it refunds, a top-up its
// provider events; another user's entry is a 404.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createUser } from '../../../src/billing/accounts.ts'
import { listTransactions, transactionDetail } from '../../../src/console/transactions/service.ts'
import { GatewayError } from '../../../src/core/errors.ts'
import { ledgerEntries, paymentEvents } from '../../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const T0 = Date.UTC(2026, 10, 27, 12)

describe('transactions on embedded Postgres', () => {
  let m: MemoryDb
  let me: string
  let other: string
  const deps = () => ({ db: m.db })
  const ids = (r: { items: { id: string }[] }) => r.items.map((i) => i.id)
  beforeAll(async () => {
    m = await memoryDb()
    me = (await createUser(m.db, 'me@test.local', null)).id
    other = (await createUser(m.db, 'other@test.local', null)).id
    const entry = (id: string, userId: string, i: number, o: Partial<typeof ledgerEntries.$inferInsert>) => ({
      id,
      userId,
      kind: 'adjustment' as const,
      status: 'completed' as const,
      amountMicros: 0n,
      method: 'test',
      reference: `ref:${id}`,
      createdAt: new Date(T0 + i * 1000),
      completedAt: new Date(T0 + i * 1000),
      ...o,
    })
    await m.db.insert(ledgerEntries).values([
      entry('t_top', me, 1, { kind: 'topup', amountMicros: 10_000_000n, method: 'sandbox' }),
      entry('t_use', me, 2, {
        kind: 'usage',
        amountMicros: -1_250_000n,
        method: 'api',
        requestId: 'req_1',
        keyId: null,
        meta: { model: 'acme/x', usage: { inputTokens: 10, outputTokens: '20' }, usageSource: 'upstream' },
      }),
      entry('t_ref', me, 3, { kind: 'refund', amountMicros: 500_000n, meta: { refundOf: 't_use', note: 'sorry' } }),
      entry('t_pend', me, 4, { kind: 'topup', status: 'pending', amountMicros: 5_000_000n, completedAt: null, meta: { failure: 'x' } }),
      entry('t_else', other, 5, { amountMicros: 1n }),
    ])
    await m.db.insert(paymentEvents).values([
      {
        eventId: 'evt_2',
        provider: 'sandbox',
        type: 'payment.succeeded',
        transactionId: 't_top',
        outcome: 'credited',
        receivedAt: new Date(T0 + 2),
      },
      {
        eventId: 'evt_1',
        provider: 'sandbox',
        type: 'payment.failed',
        transactionId: 't_top',
        outcome: 'ignored: late',
        receivedAt: new Date(T0 + 1),
      },
    ])
  }, 30_000)
  afterAll(() => m.close())

  test('list: mine only, newest first, signed USD; pages and filters', async () => {
    const all = await listTransactions(deps(), me, {})
    expect(ids(all)).toEqual(['t_pend', 't_ref', 't_use', 't_top'])
    expect(all.items.find((t) => t.id === 't_use')).toMatchObject({ amount: -1.25, currency: 'USD', requestId: 'req_1' })
    expect(all.items[0]!.completedAt).toBeNull()
    expect(ids(await listTransactions(deps(), me, { kind: 'topup' }))).toEqual(['t_pend', 't_top'])
    expect(ids(await listTransactions(deps(), me, { status: 'pending' }))).toEqual(['t_pend'])
    const first = await listTransactions(deps(), me, { limit: 2 })
    const second = await listTransactions(deps(), me, { limit: 2, cursor: first.nextCursor! })
    expect([...ids(first), ...ids(second)]).toEqual(ids(all))
    expect(second.nextCursor).toBeNull()
  })

  test('usage detail: model, tokens (missing ones 0, numeric text read as numbers), source and what was refunded', async () => {
    const d = await transactionDetail(deps(), me, 't_use')
    expect(d).toMatchObject({ model: 'acme/x', usageSource: 'upstream', refunded: 0.5, note: null })
    expect(d.usage).toEqual({ inputTokens: 10, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 })
  })

  test('refund detail names what it refunds; top-up detail lists its events in arrival order', async () => {
    expect(await transactionDetail(deps(), me, 't_ref')).toMatchObject({ refundOf: 't_use', note: 'sorry' })
    const top = await transactionDetail(deps(), me, 't_top')
    expect(top.events?.map((e) => e.type)).toEqual(['payment.failed', 'payment.succeeded'])
    expect(top).toMatchObject({ failure: null, refunded: 0 })
    expect((await transactionDetail(deps(), me, 't_pend')).failure).toBe('x')
  })

  test("another user's entry or an unknown id is a 404", async () => {
    for (const id of ['t_else', 'nope']) {
      const e = await transactionDetail(deps(), me, id).catch((x) => x)
      expect(e).toBeInstanceOf(GatewayError)
      expect(e.code).toBe('NOT_FOUND')
    }
  })
})
