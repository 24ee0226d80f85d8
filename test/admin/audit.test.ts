// The admin audit log (docs/operators.md "Audit log"): who (token, cli, or a signed-in admin with
// their email), what, before and after; newest first in keyset pages; filtered by target; a row
// written in a transaction commits or rolls back with it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listAudit, recordAudit } from '../../src/admin/audit.ts'
import { memoryDb, type MemoryDb } from '../helpers/memory-db.ts'

describe('audit log on embedded Postgres', () => {
  let m: MemoryDb
  beforeAll(async () => {
    m = await memoryDb()
    // Rows of one millisecond are ordered by their random ids: the three are written apart.
    await recordAudit(m.db, { kind: 'token' }, { action: 'user.create', target: 'usr_a', after: { email: 'a@x' } })
    await Bun.sleep(5)
    await recordAudit(m.db, { kind: 'cli' }, { action: 'user.role', target: 'usr_b', before: { role: 'user' }, after: { role: 'admin' } })
    await Bun.sleep(5)
    await recordAudit(m.db, { kind: 'user', id: 'usr_admin', email: 'ops@x' }, { action: 'key.revoke', target: 'usr_a', note: 'leaked' })
  }, 30_000)
  afterAll(() => m.close())

  test('rows name the actor, the change and its states; newest first', async () => {
    const { items, nextCursor } = await listAudit(m.db, { limit: 10 })
    expect(nextCursor).toBeNull()
    expect(items.map((i) => [i.actor, i.actorEmail, i.action])).toEqual([
      ['usr_admin', 'ops@x', 'key.revoke'],
      ['cli', null, 'user.role'],
      ['token', null, 'user.create'],
    ])
    expect(items[1]).toMatchObject({ target: 'usr_b', before: { role: 'user' }, after: { role: 'admin' }, note: null })
    expect(items[0]!.note).toBe('leaked')
    expect(items[0]!.id).toMatch(/^aud_/)
    expect(Number.isNaN(Date.parse(items[0]!.at))).toBe(false)
  })

  test('keyset pages: each row once, in order, the last page without a cursor', async () => {
    const first = await listAudit(m.db, { limit: 2 })
    expect(first.items).toHaveLength(2)
    expect(first.nextCursor).not.toBeNull()
    const second = await listAudit(m.db, { limit: 2, cursor: first.nextCursor! })
    expect(second.nextCursor).toBeNull()
    expect([...first.items, ...second.items].map((i) => i.action)).toEqual(['key.revoke', 'user.role', 'user.create'])
  })

  test('target filters', async () => {
    expect((await listAudit(m.db, { limit: 10, target: 'usr_a' })).items.map((i) => i.action)).toEqual(['key.revoke', 'user.create'])
    expect((await listAudit(m.db, { limit: 10, target: 'usr_none' })).items).toEqual([])
  })

  test('in a transaction, the row commits or rolls back with the change', async () => {
    await m.db
      .transaction(async (tx) => {
        await recordAudit(tx, { kind: 'token' }, { action: 'doomed', target: 'usr_t' })
        throw new Error('the change failed')
      })
      .catch(() => {})
    expect((await listAudit(m.db, { limit: 10, target: 'usr_t' })).items).toEqual([])
  })
})
