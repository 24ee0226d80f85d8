// api_keys as migrated: only the hash is kept, unique; a key belongs to an existing user; its
// settings (arrays, bigint limit, nullable windows) round-trip; defaults for name, spend and mode.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKeys } from '../../../src/db/schema/api-keys.ts'
import { describeServices } from '../../helpers/services.ts'
import { FOREIGN_KEY_VIOLATION, migratedDatabase, sqlState, uid, UNIQUE_VIOLATION } from './migrated.ts'
import { aUser } from './user-fixture.ts'

describeServices('schema: api_keys', () => {
  const h = migratedDatabase()
  const key = (userId: string, o: Partial<typeof apiKeys.$inferInsert> = {}) => ({
    id: uid('key'),
    userId,
    keyHash: uid('hash'),
    prefix: 'tg-abc',
    ...o,
  })

  test('defaults: empty name, nothing spent, performance mode, no limits, created now', async () => {
    const k = key(await aUser(h.db))
    await h.db.insert(apiKeys).values(k)
    const [row] = await h.db.select().from(apiKeys).where(eq(apiKeys.id, k.id))
    expect(row).toMatchObject({
      name: '',
      spentMicros: 0n,
      serviceMode: 'performance',
      limitMicros: null,
      rpm: null,
      tpm: null,
      maxConcurrent: null,
      models: null,
      ipAllowlist: null,
      limitReset: null,
      revokedAt: null,
    })
    expect(row!.createdAt).toBeInstanceOf(Date)
  })

  test('settings round-trip: model globs and CIDRs as arrays, a bigint limit, its period', async () => {
    const k = key(await aUser(h.db), {
      models: ['gpt-*', 'claude-3-5-haiku'],
      ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'],
      limitMicros: 12_345_678_901_234n,
      limitReset: 'monthly',
      rpm: 60,
      tpm: 100_000,
      maxConcurrent: 4,
      expiresAt: new Date('2099-01-01T00:00:00Z'),
    })
    await h.db.insert(apiKeys).values(k)
    const [row] = await h.db.select().from(apiKeys).where(eq(apiKeys.id, k.id))
    expect(row).toMatchObject({
      models: ['gpt-*', 'claude-3-5-haiku'],
      ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'],
      limitMicros: 12_345_678_901_234n,
      limitReset: 'monthly',
      rpm: 60,
      tpm: 100_000,
      maxConcurrent: 4,
    })
    expect(row!.expiresAt?.toISOString()).toBe('2099-01-01T00:00:00.000Z')
  })

  test('a key hash is unique across users; a key of no user is refused', async () => {
    const hash = uid('samehash')
    await h.db.insert(apiKeys).values(key(await aUser(h.db), { keyHash: hash }))
    expect(await sqlState(h.db.insert(apiKeys).values(key(await aUser(h.db), { keyHash: hash })))).toBe(UNIQUE_VIOLATION)
    expect(await sqlState(h.db.insert(apiKeys).values(key(uid('ghost'))))).toBe(FOREIGN_KEY_VIOLATION)
  })
})
