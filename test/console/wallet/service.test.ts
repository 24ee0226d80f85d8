// The wallet account (docs/console.md "Wallet"): balance and available in USD, this UTC month's
// completed usage only (last month's and pending entries are not spent), pending top-ups counted
// and summed, and the top-up policy with the providers configured here.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { applyMovement, createUser } from '../../../src/billing/accounts.ts'
import { accountSummary } from '../../../src/console/wallet/service.ts'
import { ledgerEntries } from '../../../src/db/schema/index.ts'
import { base62 } from '../../../src/lib/ids.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 15, 12)

describe('accountSummary on embedded Postgres', () => {
  let m: MemoryDb
  let userId: string
  const deps = () => ({
    db: m.db,
    store: m.store,
    now: () => NOW,
    config: { topupMinUsd: 5, topupMaxUsd: 500 } as any,
    payments: new Map([['sandbox', {} as any]]),
  })
  beforeAll(async () => {
    m = await memoryDb()
    userId = (await createUser(m.db, 'wallet@test.local', null)).id
    await applyMovement(m.db, m.store, { userId, amountMicros: 20_000_000n, kind: 'adjustment', method: 'test', reference: 'seed' })
    const entry = (kind: 'usage' | 'topup', status: 'completed' | 'pending', micros: bigint, createdAt: number) => ({
      id: `txn_${base62(12)}`,
      userId,
      kind,
      status,
      amountMicros: micros,
      method: 'test',
      reference: `r:${base62(12)}`,
      createdAt: new Date(createdAt),
    })
    await m.db.insert(ledgerEntries).values([
      entry('usage', 'completed', -1_000_000n, Date.UTC(2026, 10, 1, 0, 0, 0)),
      entry('usage', 'completed', -250_000n, NOW - 1000),
      // Last month's usage and a pending entry are not this month's spend.
      entry('usage', 'completed', -9_000_000n, Date.UTC(2026, 10, 1) - 1),
      entry('usage', 'pending', -7_000_000n, NOW - 1000),
      entry('topup', 'pending', 10_000_000n, NOW - 1000),
      entry('topup', 'pending', 15_000_000n, NOW - 500),
      entry('topup', 'completed', 99_000_000n, NOW - 500),
    ])
  }, 30_000)
  afterAll(() => m.close())

  test('balance, month spend, pending top-ups and the policy, in USD', async () => {
    expect(await accountSummary(deps(), userId)).toEqual({
      balance: 20,
      reserved: 0,
      available: 20,
      currency: 'USD',
      spentThisMonth: 1.25,
      pendingTopups: { count: 2, amount: 25 },
      topup: { min: 5, max: 500, providers: ['sandbox'] },
    })
  })

  test('a user without entries: zeros, not errors', async () => {
    const fresh = (await createUser(m.db, 'empty@test.local', null)).id
    expect(await accountSummary({ ...deps(), payments: new Map() }, fresh)).toMatchObject({
      balance: 0,
      spentThisMonth: 0,
      pendingTopups: { count: 0, amount: 0 },
      topup: { providers: [] },
    })
  })
})
