// The user's request logs (docs/console.md "Request logs"): only their own, newest first in keyset
// pages, filters keyId, model and status (success below 400, error from 400), cost in USD, no
// owner in the view; one log by id, another user's being a 404.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listLogs, logDetail, logView } from '../../../src/console/logs/service.ts'
import { GatewayError } from '../../../src/core/errors.ts'
import { requestLogs } from '../../../src/db/schema/index.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const T0 = Date.UTC(2026, 10, 27, 12)
const row = (id: string, userId: string, i: number, o: Partial<typeof requestLogs.$inferInsert> = {}) => ({
  id,
  userId,
  keyId: 'key_a',
  model: 'acme/x',
  gateway: 'gw-a',
  protocol: 'chat',
  stream: false,
  status: 200,
  usageSource: 'upstream',
  latencyMs: 10,
  costMicros: 1_500n,
  createdAt: new Date(T0 + i * 1000),
  ...o,
})

describe('request logs on embedded Postgres', () => {
  let m: MemoryDb
  const deps = () => ({ db: m.db })
  beforeAll(async () => {
    m = await memoryDb()
    await m.db
      .insert(requestLogs)
      .values([
        row('r1', 'usr_me', 1),
        row('r2', 'usr_me', 2, { keyId: 'key_b', status: 429, errorCode: 'RATE_LIMITED' }),
        row('r3', 'usr_me', 3, { model: 'acme/y', status: 502, gateway: null }),
        row('r4', 'usr_me', 4),
        row('o1', 'usr_other', 5),
      ])
  }, 30_000)
  afterAll(() => m.close())

  const ids = (r: { items: { id: string }[] }) => r.items.map((i) => i.id)

  test('only mine, newest first; pages follow each other without repeats', async () => {
    expect(ids(await listLogs(deps(), 'usr_me', {}))).toEqual(['r4', 'r3', 'r2', 'r1'])
    const first = await listLogs(deps(), 'usr_me', { limit: 3 })
    expect(ids(first)).toEqual(['r4', 'r3', 'r2'])
    const second = await listLogs(deps(), 'usr_me', { limit: 3, cursor: first.nextCursor! })
    expect([ids(second), second.nextCursor]).toEqual([['r1'], null])
  })

  test('filters: keyId, model, status success (< 400) and error (>= 400)', async () => {
    expect(ids(await listLogs(deps(), 'usr_me', { keyId: 'key_b' }))).toEqual(['r2'])
    expect(ids(await listLogs(deps(), 'usr_me', { model: 'acme/y' }))).toEqual(['r3'])
    expect(ids(await listLogs(deps(), 'usr_me', { status: 'success' }))).toEqual(['r4', 'r1'])
    expect(ids(await listLogs(deps(), 'usr_me', { status: 'error' }))).toEqual(['r3', 'r2'])
  })

  test('the view: cost in USD, ISO time, no owner', async () => {
    const v = await logDetail(deps(), 'usr_me', 'r1')
    expect(v).toMatchObject({ id: 'r1', cost: 0.0015, createdAt: new Date(T0 + 1000).toISOString(), status: 200 })
    expect(Object.keys(v)).not.toContain('userId')
    expect(Object.keys(v)).not.toContain('costMicros')
    expect(logView({ ...(row('x', 'u', 0) as any), costMicros: 0n, errorCode: null, models: null })).toMatchObject({ cost: 0 })
  })

  test("another user's log, or an unknown id, is a 404", async () => {
    for (const id of ['o1', 'nope']) {
      const e = await logDetail(deps(), 'usr_me', id).catch((x) => x)
      expect(e).toBeInstanceOf(GatewayError)
      expect(e.code).toBe('NOT_FOUND')
    }
  })
})
