// Single-use mailed tokens (docs/console.md "Password reset", "Email verification"): only the
// SHA-256 is stored; a token is consumed once, for its own purpose, before it expires; consuming
// one voids every other token of that user and purpose; expired ones go as new ones arrive.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { consumeToken, issueToken } from '../../../src/console/auth/tokens.ts'
import { createUser } from '../../../src/billing/accounts.ts'
import { userTokens } from '../../../src/db/schema/index.ts'
import { sha256Hex } from '../../../src/lib/ids.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 27, 12)
const HOUR = 3_600_000

describe('mailed tokens on embedded Postgres', () => {
  let m: MemoryDb
  const user = async () => (await createUser(m.db, `${crypto.randomUUID()}@test.local`, null)).id
  const rowsOf = (userId: string) => m.db.select().from(userTokens).where(eq(userTokens.userId, userId))
  beforeAll(async () => {
    m = await memoryDb()
  }, 30_000)
  afterAll(() => m.close())

  test('issue: 32 random bytes in base64url; the table holds only the hash, purpose and expiry', async () => {
    const u = await user()
    const token = await issueToken(m.db, u, 'reset', HOUR, NOW)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const rows = await rowsOf(u)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ tokenHash: sha256Hex(token), purpose: 'reset' })
    expect(rows[0]!.expiresAt.getTime()).toBe(NOW + HOUR)
  })

  test('consume: once, for its purpose only, and not after it expired', async () => {
    const u = await user()
    const token = await issueToken(m.db, u, 'verify', HOUR, NOW)
    expect(await consumeToken(m.db, token, 'reset', NOW)).toBeUndefined()
    expect(await consumeToken(m.db, token, 'verify', NOW)).toBe(u)
    expect(await consumeToken(m.db, token, 'verify', NOW)).toBeUndefined()
    const late = await issueToken(m.db, u, 'verify', HOUR, NOW)
    expect(await consumeToken(m.db, late, 'verify', NOW + HOUR)).toBeUndefined()
    // An expired token is deleted by the attempt all the same.
    expect(await rowsOf(u)).toHaveLength(0)
  })

  test('consuming one voids the older links of the same purpose, not those of the other purpose', async () => {
    const u = await user()
    const older = await issueToken(m.db, u, 'reset', HOUR, NOW)
    const newer = await issueToken(m.db, u, 'reset', HOUR, NOW + 1)
    const verify = await issueToken(m.db, u, 'verify', HOUR, NOW + 2)
    expect(await consumeToken(m.db, newer, 'reset', NOW + 3)).toBe(u)
    expect(await consumeToken(m.db, older, 'reset', NOW + 3)).toBeUndefined()
    expect(await consumeToken(m.db, verify, 'verify', NOW + 3)).toBe(u)
  })

  test('expired tokens of the user go when a new one is issued; an over-long token is refused unhashed', async () => {
    const u = await user()
    await issueToken(m.db, u, 'reset', HOUR, NOW)
    await issueToken(m.db, u, 'verify', HOUR, NOW)
    await issueToken(m.db, u, 'reset', HOUR, NOW + 2 * HOUR)
    expect((await rowsOf(u)).map((r) => r.expiresAt.getTime())).toEqual([NOW + 3 * HOUR])
    expect(await consumeToken(m.db, 'x'.repeat(101), 'reset', NOW)).toBeUndefined()
  })
})
