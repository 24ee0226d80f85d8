// One contract, three deployments: the Redis store (Lua scripts) on one Redis and on a Redis
// Cluster (test/scale/redis-cluster.test.ts), and the in-process store, must behave the same for
// every hot-path operation.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { WINDOW_MS, type AdmitInput, type Lease, type Store } from '../../src/store/types.ts'

const T0 = 1_800_000_000_000 - (1_800_000_000_000 % WINDOW_MS) // start of a window

let n = 0
const ids = () => ({ userId: `usr_contract_${++n}_${Math.random().toString(36).slice(2)}`, keyId: `key_contract_${n}` })

const admitInput = (u: { userId: string; keyId: string }, o: Partial<AdmitInput> = {}): AdmitInput => ({
  userId: u.userId,
  keyId: u.keyId,
  rpm: 100,
  nowMs: T0 + 1_000,
  reserveMicros: 10n,
  keyLimitMicros: null,
  ...o,
})

const leaseOf = (u: { userId: string }, deadlineMs: number, abandonCostMicros: bigint): Lease => {
  const id = `req_lease_${u.userId}`
  return { id, deadlineMs, abandonCostMicros, abandonRecord: `{"abandoned":"${id}","u":"${u.userId}"}` }
}

/** An outbox record as billing writes it, as far as a mirror reload reads it (src/store/outbox-call.ts). */
const billed = (u: { userId: string; keyId: string }, requestId: string, cost: bigint) =>
  JSON.stringify({ requestId, userId: u.userId, keyId: u.keyId, cost: cost.toString() })

export type StoreFactory = () => Promise<{ store: Store; done: () => Promise<void> }>

/** The contract every Store implementation keeps; each implementation's test file calls this once. */
export function storeContract(name: string, make: StoreFactory): void {
  describe(`store contract: ${name}`, () => {
    let store: Store
    let done: () => Promise<void>
    beforeAll(async () => ({ store, done } = await make()), 30_000)
    afterAll(async () => done(), 30_000)

    test('an unmirrored account is cold; after loadAccount it is admitted and reserved', async () => {
      const u = ids()
      expect(await store.admit(admitInput(u))).toEqual({ ok: false, reason: 'cold' })
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      const r = await store.admit(admitInput(u, { reserveMicros: 300n }))
      expect(r.ok).toBe(true)
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 1_000n, reservedMicros: 300n })
    })

    test('loadAccount is set-if-absent: it never overwrites a mirrored balance', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      await store.loadAccount(u.userId, u.keyId, 5n, 0n)
      expect((await store.account(u.userId))?.balanceMicros).toBe(1_000n)
    })

    test('rate window: rpm requests admitted, the next rejected with remaining 0 and nothing reserved; a new window admits again', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 0n)
      const remaining: number[] = []
      for (let i = 0; i < 3; i++) {
        const r = await store.admit(admitInput(u, { rpm: 3, nowMs: T0 + 10 + i }))
        expect(r.ok).toBe(true)
        if (r.ok) remaining.push(r.rate.remaining)
      }
      expect(remaining).toEqual([2, 1, 0])
      const before = await store.account(u.userId)
      const rejected = await store.admit(admitInput(u, { rpm: 3, nowMs: T0 + 20_000 }))
      expect(rejected).toMatchObject({ ok: false, reason: 'rate', rate: { limit: 3, remaining: 0, resetMs: WINDOW_MS - 20_000 } })
      expect(await store.account(u.userId)).toEqual(before)
      const next = await store.admit(admitInput(u, { rpm: 3, nowMs: T0 + WINDOW_MS + 5 }))
      expect(next.ok).toBe(true)
    })

    test('balance short: rejected, nothing reserved, window not counted', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 100n, 0n)
      expect(await store.admit(admitInput(u, { reserveMicros: 30n }))).toMatchObject({ ok: true })
      // 100 − 2 × 30 = 40 is what the balance still admits at once.
      expect(await store.admit(admitInput(u, { reserveMicros: 60n }))).toMatchObject({ ok: false, reason: 'balance' })
      expect((await store.account(u.userId))?.reservedMicros).toBe(30n)
      const r = await store.admit(admitInput(u, { reserveMicros: 40n, rpm: 2 }))
      expect(r).toMatchObject({ ok: true, rate: { remaining: 0 } })
    })

    test("key limit: spent + reserved + estimate may not exceed the key's limit", async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000_000n, 90n)
      expect(await store.admit(admitInput(u, { reserveMicros: 20n, keyLimitMicros: 100n }))).toMatchObject({
        ok: false,
        reason: 'key_limit',
      })
      expect(await store.admit(admitInput(u, { reserveMicros: 10n, keyLimitMicros: 100n }))).toMatchObject({ ok: true })
      expect(await store.admit(admitInput(u, { reserveMicros: 1n, keyLimitMicros: 100n }))).toMatchObject({
        ok: false,
        reason: 'key_limit',
      })
      expect((await store.account(u.userId))?.reservedMicros).toBe(10n)
    })

    test('settle releases the reservation, applies the real cost and appends one outbox record', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 10_000n, 0n)
      await store.admit(admitInput(u, { reserveMicros: 400n }))
      await store.settle({ userId: u.userId, keyId: u.keyId, reservedMicros: 400n, costMicros: 123n, record: `{"r":"${u.userId}"}` })
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 9_877n, reservedMicros: 0n })
      // The key's spend counts against its limit afterwards: 123 spent + 878 > 1000.
      expect(await store.admit(admitInput(u, { reserveMicros: 878n, keyLimitMicros: 1_000n }))).toMatchObject({
        ok: false,
        reason: 'key_limit',
      })
      const got = await drainFor(store, u.userId)
      expect(got).toEqual([`{"r":"${u.userId}"}`])
    })

    test('outbox: unacknowledged entries are re-delivered by reclaim; acknowledged ones are not', async () => {
      const u = ids()
      await store.appendOutbox(u.userId, `{"a":"${u.userId}"}`)
      const first = (await store.readOutbox('c1', 100, 0)).filter((e) => e.record.includes(u.userId))
      expect(first).toHaveLength(1)
      expect((await store.readOutbox('c1', 100, 0)).filter((e) => e.record.includes(u.userId))).toHaveLength(0)
      const again = (await store.reclaimOutbox('c2', 0, 100)).filter((e) => e.record.includes(u.userId))
      expect(again.map((e) => e.record)).toEqual(first.map((e) => e.record))
      await store.ackOutbox(again)
      expect((await store.reclaimOutbox('c3', 0, 100)).filter((e) => e.record.includes(u.userId))).toHaveLength(0)
    })

    test("outbox: a consumer's own unacknowledged entries are read again, and only its own", async () => {
      const u = ids()
      await store.appendOutbox(u.userId, `{"o":"${u.userId}"}`)
      const mine = (e: { record: string }) => e.record.includes(u.userId)
      // The reply of this read is what a command timeout loses: Redis has delivered the entry anyway.
      expect((await store.readOutbox('own1', 100, 0)).filter(mine)).toHaveLength(1)
      expect((await store.readOutbox('own1', 100, 0)).filter(mine)).toHaveLength(0)
      expect((await store.ownPendingOutbox('own2', 100)).filter(mine)).toHaveLength(0)
      const again = (await store.ownPendingOutbox('own1', 100)).filter(mine)
      expect(again.map((e) => e.record)).toEqual([`{"o":"${u.userId}"}`])
      await store.ackOutbox(again)
      expect((await store.ownPendingOutbox('own1', 100)).filter(mine)).toHaveLength(0)
    })

    test('a waiting read returns entries appended meanwhile, whichever shard they are on', async () => {
      await drainFor(store, '')
      const users = Array.from({ length: 8 }, () => ids().userId)
      const read = store.readOutbox('waiter', 100, 30_000)
      for (const u of users) await store.appendOutbox(u, `{"w":"${u}"}`)
      const got = [...(await read)]
      // The read may return as soon as the first entry lands; the rest follow at once.
      while (got.length < users.length) {
        const more = await store.readOutbox('waiter', 100, 30_000)
        got.push(...more)
      }
      expect(got.map((e) => e.record).sort()).toEqual(users.map((u) => `{"w":"${u}"}`).sort())
      await store.ackOutbox(got)
    })

    test('adjustBalance applies only to a mirrored account', async () => {
      const u = ids()
      await store.adjustBalance(u.userId, 500n)
      expect(await store.account(u.userId)).toBeUndefined()
      await store.loadAccount(u.userId, u.keyId, 100n, 0n)
      await store.adjustBalance(u.userId, -30n)
      expect((await store.account(u.userId))?.balanceMicros).toBe(70n)
    })

    test('hit: a fixed-window counter per bucket, rejected calls not counted', async () => {
      const bucket = `ip:${Math.random()}`
      const now = T0 + 5_000
      const got = []
      for (let i = 0; i < 4; i++) got.push(await store.hit(bucket, 3, 60_000, now))
      expect(got.map((g) => g.ok)).toEqual([true, true, true, false])
      expect(got.map((g) => g.rate.remaining)).toEqual([2, 1, 0, 0])
      expect(got[3]!.rate.resetMs).toBe(55_000)
      expect((await store.hit(`${bucket}:other`, 3, 60_000, now)).ok).toBe(true)
      expect((await store.hit(bucket, 3, 60_000, T0 + 60_000)).ok).toBe(true)
    })

    test('a lease is ended by settle: renew then answers false and a sweep releases nothing', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 10_000n, 0n)
      const lease = leaseOf(u, T0 + 30_000, 40n)
      expect(await store.admit(admitInput(u, { reserveMicros: 400n, lease }))).toMatchObject({ ok: true })
      expect(await store.renewLease(u.userId, lease.id, T0 + 60_000)).toBe(true)
      expect(
        await store.settle({
          userId: u.userId,
          keyId: u.keyId,
          reservedMicros: 400n,
          costMicros: 100n,
          record: `{"s":"${u.userId}"}`,
          leaseId: lease.id,
        }),
      ).toBe(true)
      expect(await store.renewLease(u.userId, lease.id, T0 + 90_000)).toBe(false)
      expect(await store.sweepLeases(T0 + 10 * 60_000, 100)).toBe(0)
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 9_900n, reservedMicros: 0n })
      expect(await drainFor(store, u.userId)).toEqual([`{"s":"${u.userId}"}`])
    })

    test('an expired lease is released as abandoned: reservation freed, abandon cost billed, its record appended; a late settle moves nothing', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      const lease = leaseOf(u, T0 + 2_000, 30n)
      expect(await store.admit(admitInput(u, { reserveMicros: 1_000n, lease }))).toMatchObject({ ok: true })
      // Blocked while the lease holds the whole balance.
      expect(await store.admit(admitInput(u, { reserveMicros: 1n, nowMs: T0 + 1_500 }))).toMatchObject({ ok: false, reason: 'balance' })
      expect(await store.sweepLeases(T0 + 1_999, 100)).toBe(0)
      expect(await store.renewLease(u.userId, lease.id, T0 + 5_000)).toBe(true)
      expect(await store.sweepLeases(T0 + 4_000, 100)).toBe(0)
      expect(await store.sweepLeases(T0 + 5_001, 100)).toBe(1)
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 970n, reservedMicros: 0n })
      expect(await store.sweepLeases(T0 + 6_000, 100)).toBe(0)
      const late = await store.settle({
        userId: u.userId,
        keyId: u.keyId,
        reservedMicros: 1_000n,
        costMicros: 500n,
        record: `{"late":"${u.userId}"}`,
        leaseId: lease.id,
      })
      expect(late).toBe(false)
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 970n, reservedMicros: 0n })
      expect(await drainFor(store, u.userId)).toEqual([lease.abandonRecord])
      expect(await store.admit(admitInput(u, { reserveMicros: 970n, nowMs: T0 + 6_000 }))).toMatchObject({ ok: true })
    })

    test('an expired lease of an account whose mirror is gone still appends its record', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      const lease = leaseOf(u, T0 + 2_000, 10n)
      await store.admit(admitInput(u, { reserveMicros: 100n, lease }))
      await store.forgetAccount(u.userId)
      expect(await store.sweepLeases(T0 + 3_000, 100)).toBe(1)
      expect(await store.account(u.userId)).toBeUndefined()
      expect(await drainFor(store, u.userId)).toEqual([lease.abandonRecord])
    })

    test('a settle naming a lease the store never held (data lost) still applies and appends', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      const ok = await store.settle({
        userId: u.userId,
        keyId: u.keyId,
        reservedMicros: 0n,
        costMicros: 7n,
        record: `{"x":"${u.userId}"}`,
        leaseId: `req_unknown_${u.userId}`,
      })
      expect(ok).toBe(true)
      expect((await store.account(u.userId))?.balanceMicros).toBe(993n)
      expect(await drainFor(store, u.userId)).toEqual([`{"x":"${u.userId}"}`])
    })

    test('settlements of one account issued together each apply once; one whose lease was released moves nothing', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      const lease = (name: string, deadlineMs: number): Lease => ({
        id: `req_${name}_${u.userId}`,
        deadlineMs,
        abandonCostMicros: 10n,
        abandonRecord: `{"abandoned":"${name}","u":"${u.userId}"}`,
      })
      const [a, b, c] = [lease('a', T0 + 100_000), lease('b', T0 + 2_000), lease('c', T0 + 100_000)]
      for (const l of [a, b, c]) expect(await store.admit(admitInput(u, { reserveMicros: 100n, lease: l }))).toMatchObject({ ok: true })
      expect(await store.sweepLeases(T0 + 3_000, 100)).toBe(1)
      const settle = (l: Lease, cost: bigint) =>
        store.settle({
          userId: u.userId,
          keyId: u.keyId,
          reservedMicros: 100n,
          costMicros: cost,
          record: `{"settled":"${l.id}"}`,
          leaseId: l.id,
        })
      expect(await Promise.all([settle(a, 50n), settle(b, 60n), settle(c, 70n)])).toEqual([true, false, true])
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 1_000n - 10n - 50n - 70n, reservedMicros: 0n })
      expect((await drainFor(store, u.userId)).sort()).toEqual([b.abandonRecord, `{"settled":"${a.id}"}`, `{"settled":"${c.id}"}`].sort())
    })

    test("outboxCalls: the account's records that bill a cost, with request, key and cost; other accounts' and costless ones are left out", async () => {
      const u = ids()
      const other = ids()
      await store.appendOutbox(u.userId, billed(u, 'req_a', 120n))
      await store.appendOutbox(u.userId, billed(u, 'req_free', 0n))
      await store.appendOutbox(other.userId, billed({ ...other, userId: other.userId }, 'req_other', 5n))
      await store.appendOutbox(u.userId, `{"userId":"${u.userId}","cost":"oops"}`)
      await store.appendOutbox(u.userId, billed({ ...u, keyId: 'key_second' }, 'req_b', 30n))
      const { calls, through } = await store.outboxCalls(u.userId)
      expect(calls).toEqual([
        { requestId: 'req_a', keyId: u.keyId, costMicros: 120n },
        { requestId: 'req_b', keyId: 'key_second', costMicros: 30n },
      ])
      expect(through).not.toBe('')
      await drainFor(store, u.userId)
    })

    test('loadAccount takes off every record of the account appended after the caller read the outbox, from the balance and the key spend', async () => {
      const u = ids()
      await store.appendOutbox(u.userId, billed(u, 'req_before', 100n))
      const { calls, through } = await store.outboxCalls(u.userId)
      expect(calls.map((c) => c.requestId)).toEqual(['req_before'])
      // Settled after the read: the caller could not have counted it.
      await store.appendOutbox(u.userId, billed(u, 'req_after', 7n))
      await store.appendOutbox(u.userId, billed({ ...u, keyId: 'key_other' }, 'req_other_key', 3n))
      // The caller took req_before off Postgres's numbers itself (billing/mirror.ts).
      await store.loadAccount(u.userId, u.keyId, 1_000n - 100n, 500n + 100n, through)
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 1_000n - 100n - 7n - 3n, reservedMicros: 0n })
      // The key's spend is 607: 607 + 393 fits a limit of 1000, 607 + 394 does not.
      const limit = { keyLimitMicros: 1_000n }
      expect(await store.admit(admitInput(u, { ...limit, reserveMicros: 394n }))).toMatchObject({ ok: false, reason: 'key_limit' })
      expect(await store.admit(admitInput(u, { ...limit, reserveMicros: 393n }))).toMatchObject({ ok: true })
      // Present already: a second load changes nothing, whatever it brings.
      await store.loadAccount(u.userId, u.keyId, 5n, 0n)
      expect((await store.account(u.userId))?.balanceMicros).toBe(890n)
      await drainFor(store, u.userId)
    })

    test('without a read position, loadAccount takes off every record of the account in the outbox', async () => {
      const u = ids()
      await store.appendOutbox(u.userId, billed(u, 'req_1', 40n))
      await store.appendOutbox(u.userId, billed(u, 'req_2', 2n))
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      expect((await store.account(u.userId))?.balanceMicros).toBe(958n)
      await drainFor(store, u.userId)
    })

    test("a reloaded mirror holds its live leases' reservations again, and their settlements leave nothing reserved", async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      const a = { ...leaseOf(u, T0 + 30_000, 1n), id: `req_a_${u.userId}` }
      const b = { ...leaseOf(u, T0 + 30_000, 1n), id: `req_b_${u.userId}` }
      expect(await store.admit(admitInput(u, { reserveMicros: 300n, lease: a }))).toMatchObject({ ok: true })
      expect(await store.admit(admitInput(u, { reserveMicros: 200n, lease: b }))).toMatchObject({ ok: true })
      await store.forgetAccount(u.userId)
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 1_000n, reservedMicros: 500n })
      // 500 left to reserve: 501 is short.
      expect(await store.admit(admitInput(u, { reserveMicros: 501n }))).toMatchObject({ ok: false, reason: 'balance' })
      for (const [lease, reserved, cost] of [
        [a, 300n, 250n],
        [b, 200n, 20n],
      ] as const)
        await store.settle({
          userId: u.userId,
          keyId: u.keyId,
          reservedMicros: reserved,
          costMicros: cost,
          record: '{}',
          leaseId: lease.id,
        })
      expect(await store.account(u.userId)).toEqual({ balanceMicros: 730n, reservedMicros: 0n })
      await drainFor(store, '{}')
    })

    test("a settlement on a key whose spend is not mirrored leaves it so: the key's next admission loads it", async () => {
      const u = ids()
      const second = { ...u, keyId: `${u.keyId}_second` }
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      await store.loadAccount(second.userId, second.keyId, 1_000n, 0n)
      expect(await store.admit(admitInput(second, { reserveMicros: 50n }))).toMatchObject({ ok: true })
      // The mirror is lost while the second key's call is in flight, and reloaded for the first key.
      await store.forgetAccount(u.userId)
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      await store.settle({ userId: u.userId, keyId: second.keyId, reservedMicros: 50n, costMicros: 40n, record: '{}' })
      expect(await store.admit(admitInput(second))).toEqual({ ok: false, reason: 'cold' })
      await drainFor(store, '{}')
    })

    test('50 concurrent admits against a balance of 10 reservations admit 5: the ones in flight are covered twice', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 1_000n, 0n)
      const results = await Promise.all(Array.from({ length: 50 }, () => store.admit(admitInput(u, { reserveMicros: 100n, rpm: 1_000 }))))
      // Admitted while 1000 − 2 × reserved ≥ 100: with 0, 100, 200, 300 and 400 in flight.
      expect(results.filter((r) => r.ok)).toHaveLength(5)
      expect(results.filter((r) => !r.ok && r.reason === 'balance')).toHaveLength(45)
      expect((await store.account(u.userId))?.reservedMicros).toBe(500n)
    })

    test('the balance rule at its edge: alone a call needs its reservation; with calls in flight, them twice over', async () => {
      const u = ids()
      await store.loadAccount(u.userId, u.keyId, 250n, 0n)
      expect((await store.admit(admitInput(u, { reserveMicros: 250n }))).ok).toBe(true)
      expect(await store.admit(admitInput(u, { reserveMicros: 1n }))).toMatchObject({ ok: false, reason: 'balance' })
      await store.settle({ userId: u.userId, keyId: u.keyId, reservedMicros: 250n, costMicros: 0n, record: '{}' })
      // 250 − 2 × 100 = 50: a call of 50 fits beside one of 100, one of 51 does not.
      expect((await store.admit(admitInput(u, { reserveMicros: 100n }))).ok).toBe(true)
      expect(await store.admit(admitInput(u, { reserveMicros: 51n }))).toMatchObject({ ok: false, reason: 'balance' })
      expect((await store.admit(admitInput(u, { reserveMicros: 50n }))).ok).toBe(true)
      expect((await store.account(u.userId))?.reservedMicros).toBe(150n)
      await drainFor(store, '{}')
    })
  })
}

async function drainFor(store: Store, marker: string): Promise<string[]> {
  const entries = await store.readOutbox('drain', 1_000, 0)
  await store.ackOutbox(entries)
  return entries.map((e) => e.record).filter((r) => r.includes(marker))
}
