// The signed-in user's keys (docs/console.md "API keys"): the console may only tighten the
// operator's rpm quota and set a future expiry; model patterns must match the catalog; a key of
// another user is not found; a change or revocation drops the key from the cache at once; a
// second revocation keeps the first time; lists are the user's own, newest first, in pages.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createUser } from '../../../src/billing/accounts.ts'
import { changeKey, createKey, listKeys, revokeKey } from '../../../src/console/keys/service.ts'
import { GatewayError } from '../../../src/core/errors.ts'
import { apiKeys } from '../../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 27, 12)
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => (e instanceof GatewayError ? e.code : String(e)),
  )

describe('console keys on embedded Postgres', () => {
  let m: MemoryDb
  let me: string
  let other: string
  const invalidated: string[] = []
  let deps: any
  beforeAll(async () => {
    m = await memoryDb()
    me = (await createUser(m.db, 'me@test.local', null)).id
    other = (await createUser(m.db, 'other@test.local', null)).id
    deps = {
      db: m.db,
      now: () => NOW,
      config: { defaultRpm: 60 },
      catalog: { all: () => [{ id: 'acme/a' }, { id: 'acme/b' }] },
      auth: { invalidate: (id: string) => invalidated.push(id) },
    }
  }, 30_000)
  afterAll(() => m.close())

  test('create: the secret once, the view with the operator rpm; rpm above the quota and past expiry are 400', async () => {
    const k = await createKey(deps, me, { name: 'ci', limit: 2 })
    expect(k.key).toMatch(/^sk-/)
    expect(k).toMatchObject({ name: 'ci', status: 'active', limit: 2, spent: 0, remaining: 2, rpm: 60 })
    expect((await createKey(deps, me, { rpm: 60 })).rpm).toBe(60)
    expect(await codeOf(createKey(deps, me, { rpm: 61 }))).toBe('BAD_REQUEST')
    expect(await codeOf(createKey(deps, me, { expiresAt: new Date(NOW).toISOString() }))).toBe('BAD_REQUEST')
    expect(await codeOf(createKey(deps, me, { models: ['other/*'] }))).toBe('VALIDATION_FAILED')
    expect((await createKey(deps, me, { models: ['acme/*'] })).models).toEqual(['acme/*'])
  })

  test("change: mine only; the cache drops the key; another user's key is 404 and unchanged", async () => {
    const k = await createKey(deps, me, { name: 'before' })
    invalidated.length = 0
    expect((await changeKey(deps, me, k.id, { name: 'after', rpm: 5 })).rpm).toBe(5)
    expect(invalidated).toEqual([k.id])
    expect(await codeOf(changeKey(deps, other, k.id, { name: 'stolen' }))).toBe('NOT_FOUND')
    expect(await codeOf(changeKey(deps, me, k.id, { rpm: 61 }))).toBe('BAD_REQUEST')
    const [row] = await m.db.select().from(apiKeys).where(eq(apiKeys.id, k.id))
    expect([row!.name, row!.rpm]).toEqual(['after', 5])
  })

  test('revoke: status revoked, the first time kept, the cache dropped; not for another user', async () => {
    const k = await createKey(deps, me, {})
    invalidated.length = 0
    expect(await codeOf(revokeKey(deps, other, k.id))).toBe('NOT_FOUND')
    const first = await revokeKey(deps, me, k.id)
    expect(first.status).toBe('revoked')
    const second = await revokeKey(deps, me, k.id)
    expect(second.revokedAt).toBe(first.revokedAt)
    expect(invalidated).toEqual([k.id, k.id])
  })

  test('list: my keys only, newest first, in pages', async () => {
    const theirs = await createKey(deps, other, { name: 'theirs' })
    const all = await listKeys(deps, me, { limit: 100 })
    expect(all.items.map((k) => k.id)).not.toContain(theirs.id)
    expect(all.items.every((k) => !('key' in k))).toBe(true)
    const times = all.items.map((k) => k.createdAt)
    expect(times).toEqual([...times].sort().reverse())
    const first = await listKeys(deps, me, { limit: 2 })
    const rest = await listKeys(deps, me, { limit: 100, cursor: first.nextCursor! })
    expect([...first.items, ...rest.items].map((k) => k.id)).toEqual(all.items.map((k) => k.id))
  })
})
