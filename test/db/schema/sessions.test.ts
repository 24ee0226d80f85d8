// sessions as migrated: keyed by the token's hash, only for an existing user, with its expiry.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions } from '../../../src/db/schema/sessions.ts'
import { describeServices } from '../../helpers/services.ts'
import { FOREIGN_KEY_VIOLATION, migratedDatabase, NOT_NULL_VIOLATION, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'
import { aUser } from './user-fixture.ts'

describeServices('schema: sessions', () => {
  const h = migratedDatabase()

  test('a session reads back by its token hash with its expiry', async () => {
    const userId = await aUser(h.db)
    const tokenHash = uid('sha')
    const expiresAt = new Date('2030-01-01T12:00:00Z')
    await h.db.insert(sessions).values({ tokenHash, userId, expiresAt })
    const [row] = await h.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash))
    expect(row).toMatchObject({ userId })
    expect(row!.expiresAt.toISOString()).toBe(expiresAt.toISOString())
  })

  test('a token hash is one session; a session of no user, or without an expiry, is refused', async () => {
    const userId = await aUser(h.db)
    const tokenHash = uid('sha')
    await h.db.insert(sessions).values({ tokenHash, userId, expiresAt: new Date() })
    expect(await sqlState(h.db.insert(sessions).values({ tokenHash, userId, expiresAt: new Date() }))).toBe(UNIQUE_VIOLATION)
    expect(await sqlState(h.db.insert(sessions).values({ tokenHash: uid('sha'), userId: uid('ghost'), expiresAt: new Date() }))).toBe(
      FOREIGN_KEY_VIOLATION,
    )
    expect(await sqlState(h.db.insert(sessions).values({ tokenHash: uid('sha'), userId, expiresAt: null as unknown as Date }))).toBe(
      NOT_NULL_VIOLATION,
    )
  })
})
