// The store operations outside the call's own round trips, kept alike by every Store
// (src/store/types.ts): the outbox's depth and age (metrics), records appended without moving
// money, dropping a mirror (and a lease with it), and the per-bucket counter. Each test gets a
// fresh store, so outbox counts are exact.
import { describe, expect, test } from 'bun:test'
import type { Store } from '../../src/store/types.ts'
import type { StoreFactory } from './contract.ts'

const T0 = 1_800_000_000_000
let n = 0
const user = () => ({ userId: `usr_upkeep_${++n}_${crypto.randomUUID().slice(0, 8)}`, keyId: `key_upkeep_${n}` })

export function upkeepContract(name: string, make: StoreFactory): void {
  const withStore = async (fn: (store: Store) => Promise<void>) => {
    const { store, done } = await make()
    try {
      await fn(store)
    } finally {
      await done()
    }
  }

  describe(`store upkeep: ${name}`, () => {
    test('an account never mirrored reads as undefined', () =>
      withStore(async (store) => {
        expect(await store.account(user().userId)).toBeUndefined()
      }))

    test('outboxStats counts unacknowledged records and dates the oldest; acknowledged ones leave it', () =>
      withStore(async (store) => {
        expect(await store.outboxStats()).toEqual({ depth: 0, oldestMs: null })
        const before = Date.now()
        const a = user()
        const b = user()
        await store.appendOutbox(a.userId, '{"r":1}')
        await store.appendOutbox(b.userId, '{"r":2}')
        await store.appendOutbox(a.userId, '{"r":3}')
        const after = Date.now()
        const stats = await store.outboxStats()
        expect(stats.depth).toBe(3)
        expect(stats.oldestMs).toBeGreaterThanOrEqual(before - 1)
        expect(stats.oldestMs).toBeLessThanOrEqual(after)
        const read = await store.readOutbox('w1', 10, 0)
        expect(read.map((e) => e.record).sort()).toEqual(['{"r":1}', '{"r":2}', '{"r":3}'])
        // read but not acknowledged: still unwritten
        expect((await store.outboxStats()).depth).toBe(3)
        await store.ackOutbox(read.filter((e) => e.record !== '{"r":2}'))
        expect((await store.outboxStats()).depth).toBe(1)
        await store.ackOutbox(read)
        expect(await store.outboxStats()).toEqual({ depth: 0, oldestMs: null })
      }))

    test('appendOutbox moves no money', () =>
      withStore(async (store) => {
        const u = user()
        await store.loadAccount(u.userId, u.keyId, 5_000n, 0n)
        await store.appendOutbox(u.userId, JSON.stringify({ requestId: 'req_rejected', userId: u.userId, keyId: u.keyId, cost: '0' }))
        expect(await store.account(u.userId)).toEqual({ balanceMicros: 5_000n, reservedMicros: 0n })
      }))

    test('forgetAccount drops the mirror: the next admission is cold and a reload reads Postgres again', () =>
      withStore(async (store) => {
        const u = user()
        await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
        await store.forgetAccount(u.userId)
        expect(await store.account(u.userId)).toBeUndefined()
        const admit = { userId: u.userId, keyId: u.keyId, rpm: 10, nowMs: T0, reserveMicros: 1n, keyLimitMicros: null }
        expect(await store.admit(admit)).toEqual({ ok: false, reason: 'cold' })
        await store.loadAccount(u.userId, u.keyId, 700n, 0n)
        expect((await store.account(u.userId))?.balanceMicros).toBe(700n)
      }))

    test('forgetAccount with a lease ends it: no sweep releases it and its late settlement moves nothing', () =>
      withStore(async (store) => {
        const u = user()
        const now = Date.now()
        await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
        const leaseId = `req_forget_${n}`
        const lease = { id: leaseId, deadlineMs: now + 1_000, abandonCostMicros: 50n, abandonRecord: `{"abandoned":"${leaseId}"}` }
        const r = await store.admit({
          userId: u.userId,
          keyId: u.keyId,
          rpm: 10,
          nowMs: now,
          reserveMicros: 100n,
          keyLimitMicros: null,
          lease,
        })
        expect(r.ok).toBe(true)
        await store.forgetAccount(u.userId, leaseId)
        expect(await store.sweepLeases(now + 5_000, 100)).toBe(0)
        expect(await store.renewLease(u.userId, leaseId, now + 10_000)).toBe(false)
        const settled = await store.settle({
          userId: u.userId,
          keyId: u.keyId,
          reservedMicros: 100n,
          costMicros: 30n,
          record: '{"late":true}',
          leaseId,
        })
        expect(settled).toBe(false)
        expect((await store.outboxStats()).depth).toBe(0)
      }))

    test('hit: each bucket and window counts on its own; remaining and reset are reported', () =>
      withStore(async (store) => {
        const a = await store.hit('ip:1', 2, 10_000, T0 + 2_500)
        expect(a).toEqual({ ok: true, rate: { limit: 2, remaining: 1, resetMs: 7_500 } })
        expect((await store.hit('ip:1', 2, 10_000, T0 + 2_600)).rate.remaining).toBe(0)
        expect(await store.hit('ip:1', 2, 10_000, T0 + 2_700)).toEqual({ ok: false, rate: { limit: 2, remaining: 0, resetMs: 7_300 } })
        expect((await store.hit('ip:2', 2, 10_000, T0 + 2_700)).ok).toBe(true)
        expect((await store.hit('ip:1', 2, 10_000, T0 + 10_000)).ok).toBe(true)
      }))

    test('ping answers and repairOutbox leaves the outbox readable', () =>
      withStore(async (store) => {
        await store.ping()
        await store.repairOutbox()
        await store.appendOutbox(user().userId, '{"after":"repair"}')
        expect((await store.readOutbox('w', 10, 0)).map((e) => e.record)).toEqual(['{"after":"repair"}'])
      }))
  })
}
