// user_tokens as migrated: single-use mailed tokens kept by hash, for an existing user, with
// their purpose; a token hash is one token.
import { expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { userTokens } from '../../../src/db/schema/user-tokens.ts'
import { describeServices } from '../../helpers/services.ts'
import { FOREIGN_KEY_VIOLATION, migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'
import { aUser } from './user-fixture.ts'

describeServices('schema: user_tokens', () => {
  const h = migratedDatabase()

  test('reset and verify tokens of a user are found by user and purpose', async () => {
    const userId = await aUser(h.db)
    const expiresAt = new Date(Date.now() + 3_600_000)
    await h.db.insert(userTokens).values([
      { tokenHash: uid('sha'), userId, purpose: 'reset', expiresAt },
      { tokenHash: uid('sha'), userId, purpose: 'verify', expiresAt },
      { tokenHash: uid('sha'), userId, purpose: 'verify', expiresAt },
    ])
    const verify = await h.db
      .select()
      .from(userTokens)
      .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, 'verify')))
    expect(verify).toHaveLength(2)
  })

  test('a hash is one token; a token of no user is refused; using it deletes it', async () => {
    const userId = await aUser(h.db)
    const tokenHash = uid('sha')
    const t = { tokenHash, userId, purpose: 'reset' as const, expiresAt: new Date() }
    await h.db.insert(userTokens).values(t)
    expect(await sqlState(h.db.insert(userTokens).values(t))).toBe(UNIQUE_VIOLATION)
    expect(await sqlState(h.db.insert(userTokens).values({ ...t, tokenHash: uid('sha'), userId: uid('ghost') }))).toBe(
      FOREIGN_KEY_VIOLATION,
    )
    const used = await h.db.delete(userTokens).where(eq(userTokens.tokenHash, tokenHash)).returning()
    expect(used).toHaveLength(1)
    expect(await h.db.delete(userTokens).where(eq(userTokens.tokenHash, tokenHash)).returning()).toHaveLength(0)
  })
})
