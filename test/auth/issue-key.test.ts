// Issuing a key (auth/issue-key.ts): the secret is answered once and never stored (only its
// SHA-256 and prefix), the settings land in their columns, and a bad limit or expiry is refused
// before anything is written.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { expiryOf, issueKey, limitMicrosOf } from '../../src/auth/issue-key.ts'
import { createUser } from '../../src/billing/accounts.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { apiKeys } from '../../src/db/schema/index.ts'
import { sha256Hex } from '../../src/lib/ids.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

const refused = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError)
    return (e as GatewayError).code
  }
  throw new Error('expected a refusal')
}

describe('limitMicrosOf', () => {
  test('USD to integer micro-USD; null means no limit', () => {
    expect(limitMicrosOf(null)).toBeNull()
    expect(limitMicrosOf(0)).toBe(0n)
    expect(limitMicrosOf(12.345678)).toBe(12_345_678n)
  })
  test('a negative or over-precise amount is a 400', () => {
    expect(refused(() => limitMicrosOf(-0.01))).toBe('BAD_REQUEST')
    expect(refused(() => limitMicrosOf(1.0000001))).toBe('BAD_REQUEST')
  })
})

describe('expiryOf', () => {
  test('an ISO date-time with a zone becomes that instant; null or empty means never', () => {
    expect(expiryOf('2030-01-31T00:00:00Z')?.toISOString()).toBe('2030-01-31T00:00:00.000Z')
    expect(expiryOf('2030-01-31T02:00:00+02:00')?.toISOString()).toBe('2030-01-31T00:00:00.000Z')
    expect(expiryOf(null)).toBeNull()
    expect(expiryOf('')).toBeNull()
  })
  test('an impossible or zone-less date is a 400', () => {
    expect(refused(() => expiryOf('2030-02-30T00:00:00Z'))).toBe('BAD_REQUEST')
    expect(refused(() => expiryOf('2030-01-31T00:00:00'))).toBe('BAD_REQUEST')
    expect(refused(() => expiryOf('tomorrow'))).toBe('BAD_REQUEST')
  })
})

describe('issueKey on embedded Postgres', () => {
  let m: MemoryDb
  let userId: string
  beforeAll(async () => {
    m = await memoryDb()
    userId = (await createUser(m.db, 'keys@test.local', null)).id
  }, 30_000)
  afterAll(() => m.close())

  test('stores the hash and prefix of the secret it answers, never the secret', async () => {
    const issued = await issueKey(m, { userId })
    expect(issued.key).toMatch(/^sk-[A-Za-z0-9]{40}$/)
    expect(issued.key.startsWith(issued.prefix)).toBe(true)
    const [row] = await m.db.select().from(apiKeys).where(eq(apiKeys.id, issued.id))
    expect(row!.keyHash).toBe(sha256Hex(issued.key))
    expect(
      Object.values(row!)
        .map(String)
        .some((v) => v.includes(issued.key)),
    ).toBe(false)
    // Defaults: no limit, no expiry, the default rpm (null), performance mode.
    expect([row!.limitMicros, row!.expiresAt, row!.rpm, row!.serviceMode, row!.name]).toEqual([null, null, null, 'performance', ''])
  })

  test('settings land in their columns: the limit in micro-USD, the expiry as a date', async () => {
    const issued = await issueKey(m, {
      userId,
      name: 'ci',
      limit: 2.5,
      rpm: 30,
      expiresAt: '2031-05-01T12:00:00Z',
      models: ['acme/*'],
      ipAllowlist: ['10.0.0.0/8'],
      tpm: 1000,
      maxConcurrent: 2,
      limitReset: 'monthly',
    })
    const [row] = await m.db.select().from(apiKeys).where(eq(apiKeys.id, issued.id))
    expect(row).toMatchObject({
      name: 'ci',
      limitMicros: 2_500_000n,
      rpm: 30,
      models: ['acme/*'],
      ipAllowlist: ['10.0.0.0/8'],
      tpm: 1000,
      maxConcurrent: 2,
      limitReset: 'monthly',
    })
    expect(row!.expiresAt?.toISOString()).toBe('2031-05-01T12:00:00.000Z')
  })

  test('a refused limit writes no key', async () => {
    const before = (await m.db.select().from(apiKeys).where(eq(apiKeys.userId, userId))).length
    await expect(issueKey(m, { userId, limit: -1 })).rejects.toBeInstanceOf(GatewayError)
    await expect(issueKey(m, { userId, expiresAt: '2031-13-01T00:00:00Z' })).rejects.toBeInstanceOf(GatewayError)
    expect((await m.db.select().from(apiKeys).where(eq(apiKeys.userId, userId))).length).toBe(before)
  })
})
