// payment_events as migrated: a provider's event is recorded once (the first gate against a
// duplicated delivery); the same event id from another provider is a different event.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { paymentEvents } from '../../../src/db/schema/payment-events.ts'
import { describeServices } from '../../helpers/services.ts'
import { migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'

describeServices('schema: payment_events', () => {
  const h = migratedDatabase()

  test('one row per provider and event id', async () => {
    const eventId = uid('evt')
    const e = { provider: 'stripe', eventId, type: 'checkout.session.completed', transactionId: 'txn_1', outcome: 'credited' }
    await h.db.insert(paymentEvents).values(e)
    expect(await sqlState(h.db.insert(paymentEvents).values({ ...e, outcome: 'ignored: duplicate' }))).toBe(UNIQUE_VIOLATION)
    await h.db.insert(paymentEvents).values({ ...e, provider: 'sandbox' })
    const rows = await h.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId))
    expect(rows.map((r) => [r.provider, r.outcome]).sort()).toEqual([
      ['sandbox', 'credited'],
      ['stripe', 'credited'],
    ])
    expect(rows[0]!.receivedAt).toBeInstanceOf(Date)
  })

  test('an event that names no top-up is kept with a null transaction', async () => {
    const eventId = uid('evt')
    await h.db.insert(paymentEvents).values({ provider: 'stripe', eventId, type: 'customer.created', outcome: 'ignored: not a top-up' })
    const [row] = await h.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId))
    expect(row!.transactionId).toBeNull()
  })
})
