// auto_topups as migrated: one row per existing user, off by default; the in-flight claim is a
// conditional update that only one of two concurrent claimers wins.
import { expect, test } from 'bun:test'
import { and, eq, isNull } from 'drizzle-orm'
import { autoTopups } from '../../../src/db/schema/auto-topups.ts'
import { describeServices } from '../../helpers/services.ts'
import { FOREIGN_KEY_VIOLATION, migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'
import { aUser } from './user-fixture.ts'

describeServices('schema: auto_topups', () => {
  const h = migratedDatabase()
  const row = (userId: string) => ({ userId, thresholdMicros: 5_000_000n, amountMicros: 20_000_000n, provider: 'sandbox' })

  test('off by default, nothing in flight, amounts exact', async () => {
    const userId = await aUser(h.db)
    await h.db.insert(autoTopups).values(row(userId))
    const [r] = await h.db.select().from(autoTopups).where(eq(autoTopups.userId, userId))
    expect(r).toMatchObject({ enabled: false, inFlight: null, lowSince: null, lastError: null, paymentMethod: null })
    expect([r!.thresholdMicros, r!.amountMicros]).toEqual([5_000_000n, 20_000_000n])
  })

  test('one row per user, and only for a user that exists', async () => {
    const userId = await aUser(h.db)
    await h.db.insert(autoTopups).values(row(userId))
    expect(await sqlState(h.db.insert(autoTopups).values(row(userId)))).toBe(UNIQUE_VIOLATION)
    expect(await sqlState(h.db.insert(autoTopups).values(row(uid('ghost'))))).toBe(FOREIGN_KEY_VIOLATION)
  })

  test('of two claims made at once (set in_flight only while null) exactly one wins', async () => {
    const userId = await aUser(h.db)
    await h.db.insert(autoTopups).values({ ...row(userId), enabled: true })
    const claim = (ledgerId: string) =>
      h.db
        .update(autoTopups)
        .set({ inFlight: ledgerId })
        .where(and(eq(autoTopups.userId, userId), isNull(autoTopups.inFlight)))
        .returning({ inFlight: autoTopups.inFlight })
    const results = await Promise.all([claim('txn_a'), claim('txn_b'), claim('txn_c')])
    expect(results.flat()).toHaveLength(1)
    const [r] = await h.db.select().from(autoTopups).where(eq(autoTopups.userId, userId))
    expect(r!.inFlight).toBe(results.flat()[0]!.inFlight)
  })
})
