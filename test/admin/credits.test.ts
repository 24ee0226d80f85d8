// Admin credit adjustments (docs/api.md "Idempotent retries"): without a key each call is its own
// movement; with an Idempotency-Key one movement per user and key, a retry with the same body gets
// the first answer (replayed), another body is a 409; the balance equals the ledger's sum; an
// over-long key or an unknown user changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { applyCredit } from '../../src/admin/credits.ts'
import { createUser } from '../../src/billing/accounts.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { accounts, ledgerEntries } from '../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

describe('applyCredit on embedded Postgres', () => {
  let m: MemoryDb
  const user = async () => (await createUser(m.db, `${crypto.randomUUID()}@test.local`, null)).id
  const books = async (userId: string) => {
    const [a] = await m.db.select({ b: accounts.balanceMicros }).from(accounts).where(eq(accounts.userId, userId))
    const [s] = await m.db
      .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)::text`, n: sql<number>`count(*)::int` })
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.userId} = ${userId} and ${ledgerEntries.status} = 'completed'`)
    return { balance: a!.b, ledgerSum: BigInt(s!.s), entries: s!.n }
  }
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e) => (e instanceof GatewayError ? e.code : String(e)),
    )
  beforeAll(async () => {
    m = await memoryDb()
  }, 30_000)
  afterAll(() => m.close())

  test('without a key, every call is a movement; answers the balance in USD', async () => {
    const u = await user()
    expect(await applyCredit(m, { userId: u, amountMicros: 2_500_000n })).toEqual({ balance: 2.5, replayed: false })
    expect(await applyCredit(m, { userId: u, amountMicros: -500_000n, note: 'fix' })).toEqual({ balance: 2, replayed: false })
    expect(await books(u)).toEqual({ balance: 2_000_000n, ledgerSum: 2_000_000n, entries: 2 })
  })

  test('with a key: applied once; a retry replays the first answer even after later movements', async () => {
    const u = await user()
    const first = await applyCredit(m, { userId: u, amountMicros: 1_000_000n, key: 'k1', note: 'n' })
    await applyCredit(m, { userId: u, amountMicros: 3_000_000n })
    const retry = await applyCredit(m, { userId: u, amountMicros: 1_000_000n, key: 'k1', note: 'n' })
    expect(first).toEqual({ balance: 1, replayed: false })
    expect(retry).toEqual({ balance: 1, replayed: true })
    expect(await books(u)).toEqual({ balance: 4_000_000n, ledgerSum: 4_000_000n, entries: 2 })
  })

  test('an unknown user is NOT_FOUND, with or without a key, and writes nothing', async () => {
    const ghost = `usr_${crypto.randomUUID()}`
    const before = await m.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries)
    expect(await codeOf(applyCredit(m, { userId: ghost, amountMicros: 1_000_000n }))).toBe('NOT_FOUND')
    expect(await codeOf(applyCredit(m, { userId: ghost, amountMicros: 1_000_000n, key: 'k' }))).toBe('NOT_FOUND')
    expect(await m.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries)).toEqual(before)
  })

  test('the same key with another amount or note is a 409; the key is per user', async () => {
    const u = await user()
    const other = await user()
    await applyCredit(m, { userId: u, amountMicros: 1_000_000n, key: 'k' })
    expect(await codeOf(applyCredit(m, { userId: u, amountMicros: 2_000_000n, key: 'k' }))).toBe('CONFLICT')
    expect(await codeOf(applyCredit(m, { userId: u, amountMicros: 1_000_000n, key: 'k', note: 'x' }))).toBe('CONFLICT')
    expect(await applyCredit(m, { userId: other, amountMicros: 2_000_000n, key: 'k' })).toEqual({ balance: 2, replayed: false })
    expect((await books(u)).balance).toBe(1_000_000n)
  })

  test('concurrent first uses of one key make one movement', async () => {
    const u = await user()
    const answers = await Promise.all(Array.from({ length: 5 }, () => applyCredit(m, { userId: u, amountMicros: 700_000n, key: 'race' })))
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1)
    expect(answers.every((a) => a.balance === 0.7)).toBe(true)
    expect(await books(u)).toEqual({ balance: 700_000n, ledgerSum: 700_000n, entries: 1 })
  })

  test('the audit hook sees the balance before and after, in the movement’s transaction', async () => {
    const u = await user()
    await applyCredit(m, { userId: u, amountMicros: 1_000_000n })
    const seen: bigint[] = []
    await applyCredit(m, { userId: u, amountMicros: 250_000n, audit: async (_tx, before, after) => void seen.push(before, after) })
    expect(seen).toEqual([1_000_000n, 1_250_000n])
    // A failing audit undoes the movement.
    const failed = applyCredit(m, { userId: u, amountMicros: 5_000_000n, audit: async () => Promise.reject(new Error('audit down')) })
    expect(await codeOf(failed)).toBe('Error: audit down')
    expect(await books(u)).toEqual({ balance: 1_250_000n, ledgerSum: 1_250_000n, entries: 2 })
  })

  test('an over-long key is a 400 and writes nothing; 255 characters are accepted', async () => {
    const count = async () => (await m.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries))[0]!.n
    const before = await count()
    const u = await user()
    expect(await codeOf(applyCredit(m, { userId: u, amountMicros: 1n, key: 'k'.repeat(256) }))).toBe('BAD_REQUEST')
    expect(await applyCredit(m, { userId: u, amountMicros: 1n, key: 'k'.repeat(255) })).toMatchObject({ replayed: false })
    expect(await count()).toBe(before + 1)
  })
})
