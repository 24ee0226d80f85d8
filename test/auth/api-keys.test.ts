// Key verification's caches: unknown keys have a cache of their own, so a flood of guesses never
// evicts a verified key (docs/security.md "Limits").
import { describe, expect, test } from 'bun:test'
import { ApiKeyAuth, generateApiKey } from '../../src/auth/api-keys.ts'

describe('unknown keys have their own cache', () => {
  /** A db whose first lookup finds the key and every later one finds nothing (the guesses). */
  function fakeDb() {
    const key = { id: 'key_1', userId: 'u1', limitMicros: null, rpm: null, serviceMode: 'performance', expiresAt: null, revokedAt: null }
    const where = () => ({ limit: async () => (++db.lookups === 1 ? [{ key, disabledAt: null }] : []) })
    const db = {
      lookups: 0,
      select: () => ({ from: () => ({ innerJoin: () => ({ where }) }) }),
    }
    return db
  }

  test('a flood of unknown keys neither evicts a verified key nor reaches Postgres twice per key within the TTL', async () => {
    const good = generateApiKey()
    const db = fakeDb()
    const auth = new ApiKeyAuth(db as any, 60_000, 600)
    expect((await auth.verify(good.secret))?.keyId).toBe('key_1')
    expect(db.lookups).toBe(1)
    const guesses = Array.from({ length: 60_000 }, () => generateApiKey().secret)
    for (const g of guesses) expect(await auth.verify(g)).toBeUndefined()
    const afterFlood = db.lookups
    expect(afterFlood).toBe(1 + guesses.length)
    // The verified key is still cached: no lookup.
    expect((await auth.verify(good.secret))?.keyId).toBe('key_1')
    expect(db.lookups).toBe(afterFlood)
    // A recent miss is answered from the negative cache.
    expect(await auth.verify(guesses.at(-1))).toBeUndefined()
    expect(db.lookups).toBe(afterFlood)
  }, 60_000)
})

describe('one lookup per key at a time', () => {
  test('the calls of a key that arrive before its lookup answers share it: one query, one principal for all', async () => {
    const good = generateApiKey()
    let lookups = 0
    let answer: (rows: unknown[]) => void = () => {}
    const key = { id: 'key_2', userId: 'u2', limitMicros: null, rpm: null, serviceMode: 'performance', expiresAt: null, revokedAt: null }
    const db = {
      select: () => ({
        from: () => ({
          innerJoin: () => ({
            where: () => ({
              limit: () => {
                lookups++
                return new Promise<unknown[]>((resolve) => (answer = resolve))
              },
            }),
          }),
        }),
      }),
    }
    const auth = new ApiKeyAuth(db as any, 60_000, 600)
    const waiting = Array.from({ length: 100 }, () => auth.verify(good.secret))
    await Bun.sleep(1)
    expect(lookups).toBe(1)
    answer([{ key, disabledAt: null }])
    expect((await Promise.all(waiting)).map((p) => p?.keyId)).toEqual(Array.from({ length: 100 }, () => 'key_2'))
    // Answered and cached: the next call asks nothing; a lookup that failed would be asked again.
    expect((await auth.verify(good.secret))?.keyId).toBe('key_2')
    expect(lookups).toBe(1)
  })
})
