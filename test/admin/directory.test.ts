// The admin directory (README "Admin API"): users in id order with their balances in USD, an
// email filter that treats % and _ as plain characters, pages; disable/enable keeping the first
// disabling time; one user's summary; a user's keys newest first with the period's spend.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { keyViews, listKeys, listUsers, setDisabled, userExists, userSummary } from '../../src/admin/directory.ts'
import { issueKey } from '../../src/auth/issue-key.ts'
import { applyMovement, createUser } from '../../src/billing/accounts.ts'
import { apiKeys, users } from '../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

describe('admin directory on embedded Postgres', () => {
  let m: MemoryDb
  const tag = crypto.randomUUID().slice(0, 8)
  let funded: { id: string; email: string }
  beforeAll(async () => {
    m = await memoryDb()
    funded = await createUser(m.db, `a_${tag}@test.local`, null)
    await createUser(m.db, `b%${tag}@test.local`, null)
    await createUser(m.db, `cx${tag}@test.local`, null)
    await applyMovement(m.db, m.store, {
      userId: funded.id,
      amountMicros: 12_345_678n,
      kind: 'adjustment',
      method: 'test',
      reference: 'seed',
    })
  }, 30_000)
  afterAll(() => m.close())

  test('users in id order with USD balances; pages without repeats', async () => {
    const all = await listUsers(m.db, { limit: 10 })
    expect(all.items.map((u) => u.id)).toEqual([...all.items.map((u) => u.id)].sort())
    expect(all.nextCursor).toBeNull()
    expect(all.items.find((u) => u.id === funded.id)).toMatchObject({
      email: funded.email,
      balance: 12.345678,
      disabled: false,
      role: 'user',
    })
    const first = await listUsers(m.db, { limit: 2 })
    expect(first.nextCursor).toBe(first.items[1]!.id)
    const rest = await listUsers(m.db, { limit: 2, cursor: first.nextCursor! })
    expect([...first.items, ...rest.items].map((u) => u.id)).toEqual(all.items.map((u) => u.id))
  })

  test('the email filter is a case-insensitive substring; % and _ are plain characters', async () => {
    const emails = async (email: string) => (await listUsers(m.db, { limit: 10, email })).items.map((u) => u.email)
    expect(await emails(`%${tag.toUpperCase()}`)).toEqual([`b%${tag}@test.local`])
    expect(await emails(`_${tag}`)).toEqual([`a_${tag}@test.local`])
    expect((await emails(tag)).length).toBe(3)
  })

  test('disable keeps the first time; enable clears it; an unknown user is false', async () => {
    expect(await setDisabled(m.db, funded.id, true)).toBe(true)
    const [first] = await m.db.select({ at: users.disabledAt }).from(users).where(eq(users.id, funded.id))
    expect(await setDisabled(m.db, funded.id, true)).toBe(true)
    const [second] = await m.db.select({ at: users.disabledAt }).from(users).where(eq(users.id, funded.id))
    expect(second!.at?.getTime()).toBe(first!.at!.getTime())
    expect((await userSummary(m.db, m.store, funded.id))?.disabled).toBe(true)
    expect(await setDisabled(m.db, funded.id, false)).toBe(true)
    expect((await userSummary(m.db, m.store, funded.id))?.disabled).toBe(false)
    expect(await setDisabled(m.db, 'usr_nobody', true)).toBe(false)
  })

  test('a summary: balance and reserved in USD; unknown users are undefined / not existing', async () => {
    expect(await userSummary(m.db, m.store, funded.id)).toMatchObject({ id: funded.id, balance: 12.345678, reserved: 0 })
    expect(await userSummary(m.db, m.store, 'usr_nobody')).toBeUndefined()
    expect(await userExists(m.db, funded.id)).toBe(true)
    expect(await userExists(m.db, 'usr_nobody')).toBe(false)
  })

  test("a user's keys, newest first, as the admin API shows them (USD, no hash)", async () => {
    const u = await createUser(m.db, `keys_${tag}@test.local`, null)
    const older = await issueKey(m, { userId: u.id, name: 'old', limit: 3 })
    const newer = await issueKey(m, { userId: u.id, name: 'new', limitReset: 'daily' })
    await m.db
      .update(apiKeys)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(apiKeys.id, older.id))
    const rows = await listKeys(m.db, u.id)
    expect(rows.map((k) => k.id)).toEqual([newer.id, older.id])
    const views = await keyViews({ db: m.db, now: () => Date.UTC(2026, 10, 27, 12), config: { defaultRpm: 600 } }, rows)
    expect(views[1]).toMatchObject({ id: older.id, name: 'old', limit: 3, spent: 0, prefix: older.prefix, revokedAt: null })
    expect(views[0]!.resetsAt).toBe('2026-11-28T00:00:00.000Z')
    expect(Object.keys(views[0]!)).not.toContain('keyHash')
  })
})
