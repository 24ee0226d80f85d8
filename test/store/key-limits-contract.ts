// The store contract for a key's own limits (docs/api.md "Key settings"), kept by every Store:
// tokens per minute (counted at admission, corrected at settlement), calls in flight (counted by
// live leases), and a spend limit counted per period (spendKey). Called beside ./contract.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { WINDOW_MS, type AdmitInput, type Store } from '../../src/store/types.ts'
import type { StoreFactory } from './contract.ts'

const T0 = Date.now() - (Date.now() % WINDOW_MS) + WINDOW_MS // the start of the next real window

let n = 0
const ids = () => ({ userId: `usr_kl_${++n}_${Math.random().toString(36).slice(2)}`, keyId: `key_kl_${n}` })

const input = (u: { userId: string; keyId: string }, o: Partial<AdmitInput> = {}): AdmitInput => ({
  userId: u.userId,
  keyId: u.keyId,
  rpm: 1_000,
  nowMs: T0 + 1_000,
  reserveMicros: 10n,
  keyLimitMicros: null,
  ...o,
})

const lease = (id: string, deadlineMs: number) => ({ id, deadlineMs, abandonCostMicros: 0n, abandonRecord: `{"abandoned":"${id}"}` })

export function keyLimitsContract(name: string, make: StoreFactory): void {
  describe(`key limits contract: ${name}`, () => {
    let store: Store
    let done: () => Promise<void>
    beforeAll(async () => ({ store, done } = await make()), 30_000)
    afterAll(async () => done(), 30_000)

    test('tpm: tokens count in the minute; over it → tpm with the token window, nothing reserved, no request counted', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n)
      const first = await store.admit(input(u, { tpm: 1_000, tokens: 700 }))
      expect(first).toMatchObject({ ok: true, rate: { remaining: 999 }, tokens: { limit: 1_000, remaining: 300 } })
      const refused = await store.admit(input(u, { tpm: 1_000, tokens: 301, nowMs: T0 + 20_000 }))
      expect(refused).toMatchObject({ ok: false, reason: 'tpm', tokens: { limit: 1_000, remaining: 300, resetMs: WINDOW_MS - 20_000 } })
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 1_000_000n, reservedMicros: 10n })
      // The refused call took no request of the window either.
      expect(await store.admit(input(u, { tpm: 1_000, tokens: 300 }))).toMatchObject({ ok: true, rate: { remaining: 998 } })
      expect(await store.admit(input(u, { tpm: 1_000, tokens: 1, nowMs: T0 + WINDOW_MS + 1 }))).toMatchObject({ ok: true })
    })

    test('settlement corrects the token window to the billed tokens, never below zero', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n)
      expect(await store.admit(input(u, { tpm: 1_000, tokens: 900, lease: lease(`${u.userId}_a`, T0 + 30_000) }))).toMatchObject({
        ok: true,
      })
      expect(await store.admit(input(u, { tpm: 1_000, tokens: 200 }))).toMatchObject({ ok: false, reason: 'tpm' })
      const settling = { userId: u.userId, keyId: u.keyId, reservedMicros: 10n, costMicros: 3n, record: '{}', leaseId: `${u.userId}_a` }
      // Billed 150 of the 900 reserved: 750 come back.
      await store.settle({ ...settling, tokens: { nowMs: T0 + 1_000, giveBack: 750 } })
      expect(await store.admit(input(u, { tpm: 1_000, tokens: 850 }))).toMatchObject({ ok: true, tokens: { remaining: 0 } })
      await store.settle({ ...settling, leaseId: undefined, tokens: { nowMs: T0 + 1_000, giveBack: 5_000 } })
      expect(await store.admit(input(u, { tpm: 1_000, tokens: 1_000 }))).toMatchObject({ ok: true, tokens: { remaining: 0 } })
    })

    test('tpm holds exactly under 50 concurrent admissions', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n)
      const results = await Promise.all(Array.from({ length: 50 }, () => store.admit(input(u, { tpm: 1_000, tokens: 100 }))))
      expect(results.filter((r) => r.ok)).toHaveLength(10)
      expect(results.filter((r) => !r.ok && r.reason === 'tpm')).toHaveLength(40)
    })

    test('maxConcurrent: live leases count; a settled or expired one frees its place; nothing reserved when refused', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n)
      const call = (id: string, deadlineMs = T0 + 30_000, nowMs = T0 + 1_000) =>
        store.admit(input(u, { maxConcurrent: 2, lease: lease(`${u.userId}_${id}`, deadlineMs), nowMs }))
      expect(await call('a')).toMatchObject({ ok: true })
      expect(await call('b', T0 + 5_000)).toMatchObject({ ok: true })
      expect(await call('c')).toMatchObject({ ok: false, reason: 'concurrency' })
      expect((await store.account(u.userId))?.reservedMicros).toBe(20n)
      await store.settle({ userId: u.userId, keyId: u.keyId, reservedMicros: 10n, costMicros: 0n, record: '{}', leaseId: `${u.userId}_a` })
      expect(await call('d')).toMatchObject({ ok: true })
      // b's instance died: once its lease's deadline passes, its place is free again.
      expect(await call('e', T0 + 30_000, T0 + 4_000)).toMatchObject({ ok: false, reason: 'concurrency' })
      expect(await call('f', T0 + 30_000, T0 + 6_000)).toMatchObject({ ok: true })
    })

    test('maxConcurrent holds exactly under 30 concurrent admissions', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n)
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => store.admit(input(u, { maxConcurrent: 3, lease: lease(`${u.userId}_${i}`, T0 + 30_000) }))),
      )
      expect(results.filter((r) => r.ok)).toHaveLength(3)
      expect(results.filter((r) => !r.ok && r.reason === 'concurrency')).toHaveLength(27)
    })

    test("a spend limit per period: each period's spend is its own; settlement counts under the admission's", async () => {
      const u = ids()
      const may = `${u.keyId}@100`
      const june = `${u.keyId}@200`
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 90n, undefined, may)
      expect(await store.admit(input(u, { spendKey: may, keyLimitMicros: 100n, reserveMicros: 20n }))).toMatchObject({
        ok: false,
        reason: 'key_limit',
      })
      // A new period is a key spend the mirror has not seen: cold, then loaded from its own start.
      expect(await store.admit(input(u, { spendKey: june, keyLimitMicros: 100n, reserveMicros: 20n }))).toEqual({
        ok: false,
        reason: 'cold',
      })
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n, undefined, june)
      expect(await store.admit(input(u, { spendKey: june, keyLimitMicros: 100n, reserveMicros: 60n }))).toMatchObject({ ok: true })
      await store.settle({ userId: u.userId, keyId: u.keyId, spendKey: june, reservedMicros: 60n, costMicros: 60n, record: '{}' })
      expect(await store.admit(input(u, { spendKey: june, keyLimitMicros: 100n, reserveMicros: 41n }))).toMatchObject({
        reason: 'key_limit',
      })
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 999_940n, reservedMicros: 0n })
      // Loading June dropped May's count: it held no reservation, and May is over.
      expect(await store.admit(input(u, { spendKey: may, keyLimitMicros: 100n, reserveMicros: 10n }))).toEqual({
        ok: false,
        reason: 'cold',
      })
    })

    test("a new period keeps an earlier period's count while a call of it is in flight, and its settlement lands there", async () => {
      const u = ids()
      const [p1, p2] = [`${u.keyId}@400`, `${u.keyId}@500`]
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n, undefined, p1)
      // In flight: its lease is live (every admitted call holds one, docs/drain.md).
      const held = lease(`${u.userId}_p1`, T0 + 30_000)
      expect(await store.admit(input(u, { spendKey: p1, keyLimitMicros: 100n, reserveMicros: 30n, lease: held }))).toMatchObject({
        ok: true,
      })
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n, undefined, p2)
      await store.settle({
        userId: u.userId,
        keyId: u.keyId,
        spendKey: p1,
        reservedMicros: 30n,
        costMicros: 25n,
        record: '{}',
        leaseId: held.id,
      })
      // p1 was kept: its count has the call (25 spent + 76 > 100).
      expect(await store.admit(input(u, { spendKey: p1, keyLimitMicros: 100n, reserveMicros: 76n }))).toMatchObject({ reason: 'key_limit' })
      expect(await store.admit(input(u, { spendKey: p2, keyLimitMicros: 100n, reserveMicros: 100n }))).toMatchObject({ ok: true })
    })

    test("an abandoned lease releases its reservation from its period's count", async () => {
      const u = ids()
      const period = `${u.keyId}@300`
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n, undefined, period)
      const held = input(u, { spendKey: period, keyLimitMicros: 100n, reserveMicros: 100n, lease: lease(`${u.userId}_x`, T0 + 2_000) })
      expect(await store.admit(held)).toMatchObject({ ok: true })
      expect(await store.admit(input(u, { spendKey: period, keyLimitMicros: 100n, reserveMicros: 1n }))).toMatchObject({
        reason: 'key_limit',
      })
      expect(await store.sweepLeases(T0 + 3_000, 1_000)).toBeGreaterThanOrEqual(1)
      expect(await store.admit(input(u, { spendKey: period, keyLimitMicros: 100n, reserveMicros: 100n }))).toMatchObject({ ok: true })
    })
  })
}
