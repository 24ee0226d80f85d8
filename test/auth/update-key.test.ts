// Changing a key (auth/update-key.ts, docs/api.md "Key settings"): an absent member is left as
// it is, null clears it; a key of another user is not found; an empty patch changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/auth/issue-key.ts'
import { patchColumns, updateKey } from '../../src/auth/update-key.ts'
import { createUser } from '../../src/billing/accounts.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

describe('patchColumns', () => {
  test('only the members present become columns; null clears', () => {
    expect(patchColumns({})).toEqual({})
    expect(patchColumns({ name: 'x', limit: null, rpm: null, expiresAt: null, models: null })).toEqual({
      name: 'x',
      limitMicros: null,
      rpm: null,
      expiresAt: null,
      models: null,
    })
  })
  test('USD and dates are converted as at issue: micro-USD, Date', () => {
    const set = patchColumns({ limit: 1.25, expiresAt: '2030-01-01T00:00:00Z', tpm: 5, maxConcurrent: 3, limitReset: 'daily' })
    expect(set.limitMicros).toBe(1_250_000n)
    expect((set.expiresAt as Date).toISOString()).toBe('2030-01-01T00:00:00.000Z')
    expect([set.tpm, set.maxConcurrent, set.limitReset]).toEqual([5, 3, 'daily'])
  })
  test('a bad limit or date is refused', () => {
    expect(() => patchColumns({ limit: -2 })).toThrow(GatewayError)
    expect(() => patchColumns({ expiresAt: 'not a date' })).toThrow(GatewayError)
  })
})

describe('updateKey on embedded Postgres', () => {
  let m: MemoryDb
  let owner: string
  let other: string
  beforeAll(async () => {
    m = await memoryDb()
    owner = (await createUser(m.db, 'owner@test.local', null)).id
    other = (await createUser(m.db, 'other@test.local', null)).id
  }, 30_000)
  afterAll(() => m.close())

  test('absent members stay, present ones change, null clears', async () => {
    const { id } = await issueKey(m, { userId: owner, name: 'a', limit: 5, rpm: 10, models: ['acme/*'] })
    const row = await updateKey(m.db, id, owner, { name: 'b', models: null })
    expect(row).toMatchObject({ id, name: 'b', limitMicros: 5_000_000n, rpm: 10, models: null })
    const cleared = await updateKey(m.db, id, owner, { limit: null })
    expect(cleared).toMatchObject({ name: 'b', limitMicros: null, rpm: 10 })
  })

  test("another user's key is not found and stays unchanged; without a user (the admin API) it is found", async () => {
    const { id } = await issueKey(m, { userId: owner, name: 'mine' })
    expect(await updateKey(m.db, id, other, { name: 'stolen' })).toBeUndefined()
    expect((await updateKey(m.db, id, owner, {}))?.name).toBe('mine')
    expect((await updateKey(m.db, id, undefined, { name: 'by admin' }))?.name).toBe('by admin')
  })

  test('an empty patch answers the key as it is; an unknown key is undefined', async () => {
    const { id } = await issueKey(m, { userId: owner, name: 'same', rpm: 7 })
    expect(await updateKey(m.db, id, owner, {})).toMatchObject({ id, name: 'same', rpm: 7 })
    expect(await updateKey(m.db, 'key_nope', undefined, {})).toBeUndefined()
    expect(await updateKey(m.db, 'key_nope', undefined, { name: 'x' })).toBeUndefined()
  })
})
