// ledger_entries as migrated: signed bigint amounts, one entry per reference (what makes every
// writer idempotent), only for an existing user; meta as JSON.
import { expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { ledgerEntries } from '../../../src/db/schema/ledger.ts'
import { describeServices } from '../../helpers/services.ts'
import { FOREIGN_KEY_VIOLATION, migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'
import { aUser } from './user-fixture.ts'

describeServices('schema: ledger_entries', () => {
  const h = migratedDatabase()
  const entry = (userId: string, o: Partial<typeof ledgerEntries.$inferInsert> = {}) => ({
    id: uid('txn'),
    userId,
    kind: 'usage' as const,
    status: 'completed' as const,
    amountMicros: -1_234n,
    method: 'api',
    reference: uid('req'),
    ...o,
  })

  test('credits and debits sum exactly in bigint', async () => {
    const userId = await aUser(h.db)
    await h.db
      .insert(ledgerEntries)
      .values([
        entry(userId, { kind: 'topup', amountMicros: 9_007_199_254_740_993n, method: 'sandbox' }),
        entry(userId, { amountMicros: -3n }),
        entry(userId, { amountMicros: -1_000_000n }),
        entry(userId, { status: 'pending', kind: 'topup', amountMicros: 50n }),
      ])
    const [row] = await h.db
      .select({ balance: sql<string>`sum(${ledgerEntries.amountMicros}) filter (where ${ledgerEntries.status} = 'completed')` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, userId))
    expect(BigInt(row!.balance)).toBe(9_007_199_254_740_993n - 3n - 1_000_000n)
  })

  test('a reference is recorded once: a second writer of the same call adds nothing', async () => {
    const userId = await aUser(h.db)
    const reference = uid('req')
    await h.db.insert(ledgerEntries).values(entry(userId, { reference }))
    expect(await sqlState(h.db.insert(ledgerEntries).values(entry(userId, { reference })))).toBe(UNIQUE_VIOLATION)
    const inserted = await h.db.insert(ledgerEntries).values(entry(userId, { reference })).onConflictDoNothing().returning()
    expect(inserted).toEqual([])
  })

  test('an entry of no user is refused; meta and completion round-trip', async () => {
    expect(await sqlState(h.db.insert(ledgerEntries).values(entry(uid('ghost'))))).toBe(FOREIGN_KEY_VIOLATION)
    const userId = await aUser(h.db)
    const e = entry(userId, {
      kind: 'refund',
      amountMicros: 500n,
      meta: { refundOf: 'txn_1', note: 'x' },
      completedAt: new Date('2030-01-02T03:04:05Z'),
    })
    await h.db.insert(ledgerEntries).values(e)
    const [row] = await h.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, e.id))
    expect(row).toMatchObject({ kind: 'refund', amountMicros: 500n, meta: { refundOf: 'txn_1', note: 'x' }, keyId: null })
    expect(row!.completedAt?.toISOString()).toBe('2030-01-02T03:04:05.000Z')
  })
})
