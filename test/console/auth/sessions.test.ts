// Console sessions (docs/console.md "Sessions"): the cookie's token is stored only as its SHA-256;
// a session answers its user until it expires, never for a disabled user; logout deletes it; a
// user's expired rows go as a new session arrives.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createUser } from '../../../src/billing/accounts.ts'
import { setDisabled } from '../../../src/admin/directory.ts'
import { createSession, deleteSession, sessionUser } from '../../../src/console/auth/sessions.ts'
import { sessions, users } from '../../../src/db/schema/index.ts'
import { sha256Hex } from '../../../src/lib/ids.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 27, 12)

describe('sessions on embedded Postgres', () => {
  let m: MemoryDb
  const user = async () => createUser(m.db, `${crypto.randomUUID()}@test.local`, null)
  beforeAll(async () => {
    m = await memoryDb()
  }, 30_000)
  afterAll(() => m.close())

  test('a session answers its user (role, verified) until its expiry; the table holds only the hash', async () => {
    const u = await user()
    const token = await createSession(m.db, u.id, 60, NOW)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const [row] = await m.db.select().from(sessions).where(eq(sessions.userId, u.id))
    expect(row!.tokenHash).toBe(sha256Hex(token))
    expect(await sessionUser(m.db, token, NOW)).toEqual({ id: u.id, email: u.email, role: 'user', verified: false })
    await m.db
      .update(users)
      .set({ role: 'admin', emailVerifiedAt: new Date(NOW) })
      .where(eq(users.id, u.id))
    expect(await sessionUser(m.db, token, NOW + 59_999)).toEqual({ id: u.id, email: u.email, role: 'admin', verified: true })
    expect(await sessionUser(m.db, token, NOW + 60_000)).toBeUndefined()
  })

  test('no token, an unknown one or an over-long one is no session', async () => {
    expect(await sessionUser(m.db, undefined, NOW)).toBeUndefined()
    expect(await sessionUser(m.db, 'nope', NOW)).toBeUndefined()
    expect(await sessionUser(m.db, 'x'.repeat(101), NOW)).toBeUndefined()
  })

  test("a disabled user's session answers nothing; enabled again, it answers", async () => {
    const u = await user()
    const token = await createSession(m.db, u.id, 3600, NOW)
    await setDisabled(m.db, u.id, true)
    expect(await sessionUser(m.db, token, NOW)).toBeUndefined()
    await setDisabled(m.db, u.id, false)
    expect((await sessionUser(m.db, token, NOW))?.id).toBe(u.id)
  })

  test('logout deletes only that session; expired rows of the user go as a new session arrives', async () => {
    const u = await user()
    const a = await createSession(m.db, u.id, 60, NOW)
    const b = await createSession(m.db, u.id, 3600, NOW)
    await deleteSession(m.db, a)
    expect(await sessionUser(m.db, a, NOW)).toBeUndefined()
    expect((await sessionUser(m.db, b, NOW))?.id).toBe(u.id)
    await createSession(m.db, u.id, 60, NOW)
    await createSession(m.db, u.id, 60, NOW + 120_000)
    const left = await m.db.select().from(sessions).where(eq(sessions.userId, u.id))
    // b (live until NOW+3600 s) and the newest stay; the one that expired at NOW+60 s is gone.
    expect(left.map((r) => r.expiresAt.getTime()).sort()).toEqual([NOW + 180_000, NOW + 3_600_000])
    await deleteSession(m.db, undefined)
  })
})
