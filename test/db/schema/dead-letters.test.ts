// ledger_dead_letters as migrated: the raw record kept verbatim, one row per request id (a
// redelivery adds none), and records without a readable request id all kept.
import { expect, test } from 'bun:test'
import { eq, isNull } from 'drizzle-orm'
import { ledgerDeadLetters } from '../../../src/db/schema/dead-letters.ts'
import { describeServices } from '../../helpers/services.ts'
import { migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'

describeServices('schema: ledger_dead_letters', () => {
  const h = migratedDatabase()

  test('the raw record and the error are kept as written', async () => {
    const id = uid('dl')
    const raw = '{"requestId":"req_x","note":"\\u0000 escaped, ☃ kept"}'
    await h.db.insert(ledgerDeadLetters).values({ id, requestId: uid('req'), raw, error: 'invalid byte sequence' })
    const [row] = await h.db.select().from(ledgerDeadLetters).where(eq(ledgerDeadLetters.id, id))
    expect(row).toMatchObject({ raw, error: 'invalid byte sequence' })
    expect(row!.createdAt).toBeInstanceOf(Date)
  })

  test('a request id is dead-lettered once; ON CONFLICT DO NOTHING makes a redelivery add nothing', async () => {
    const requestId = uid('req')
    await h.db.insert(ledgerDeadLetters).values({ id: uid('dl'), requestId, raw: 'a', error: 'e' })
    expect(await sqlState(h.db.insert(ledgerDeadLetters).values({ id: uid('dl'), requestId, raw: 'b', error: 'e' }))).toBe(UNIQUE_VIOLATION)
    await h.db
      .insert(ledgerDeadLetters)
      .values({ id: uid('dl'), requestId, raw: 'c', error: 'e' })
      .onConflictDoNothing()
    expect(await h.db.select().from(ledgerDeadLetters).where(eq(ledgerDeadLetters.requestId, requestId))).toHaveLength(1)
  })

  test('records whose request id could not be read are all kept', async () => {
    const before = (await h.db.select().from(ledgerDeadLetters).where(isNull(ledgerDeadLetters.requestId))).length
    await h.db.insert(ledgerDeadLetters).values([
      { id: uid('dl'), raw: 'garbage 1', error: 'unreadable' },
      { id: uid('dl'), raw: 'garbage 2', error: 'unreadable' },
    ])
    expect((await h.db.select().from(ledgerDeadLetters).where(isNull(ledgerDeadLetters.requestId))).length).toBe(before + 2)
  })
})
