// Overdraft is bounded and explained (docs/operations.md "Overdraft"): an upstream
// that bills more than was reserved may take the balance below zero — each call billed exactly
// what it cost, never more — and the next call is refused with 402 without reaching the
// upstream. Calls run at once only while balance − 2 × reserved covers the next reservation. A reservation prices prompt tokens as cache writes (the dearest input).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { applyMovement } from '../../src/billing/accounts.ts'
import { reservationMicros } from '../../src/billing/estimate.ts'
import { costMicros } from '../../src/billing/pricing.ts'
import { completionWithUsage, expectChatError, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks, reservedNow } from '../helpers/money.ts'
import { until } from '../helpers/until.ts'

// 5 prompt + 5,000 completion tokens at 0.15 / 0.6 USD per 1M → 3,000.75 → 3,001 micro-USD,
// far above what a call with max_tokens 100 reserves.
const OVERRUN = completionWithUsage(5, 5_000)
const COST = 3_001n

for (const backends of ALL_BACKENDS) {
  describe(`overdraft on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({ kind: 'json', body: OVERRUN })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url }]))
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    /** The reservation of one max_tokens 100 call, read while the upstream holds it. */
    async function reservationOfOneCall(): Promise<bigint> {
      const probe = await gw.user(1)
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      up.script({ kind: 'fn', handle: async () => (await gate, Response.json(OVERRUN)) })
      const call = postChat(gw, probe.key, { max_tokens: 100 })
      await until(async () => (await reservedNow(gw, probe.userId)) > 0n, 'the probe call reserved')
      const reserved = await reservedNow(gw, probe.userId)
      release()
      expect((await call).status).toBe(200)
      return reserved
    }

    async function userWith(micros: bigint) {
      const u = await gw.user(0)
      await applyMovement(gw.runtime.deps.db, gw.runtime.deps.store, {
        userId: u.userId,
        amountMicros: micros,
        kind: 'adjustment',
        method: 'test',
        reference: `credit:${u.userId}`,
      })
      return u
    }

    test('the reservation prices prompt tokens as cache writes', () => {
      const pricing = { input: 150_000_000n, output: 600_000_000n, cacheRead: 75_000_000n, cacheWrite: 187_500_000n }
      const estimate = { inputTokens: 1_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }
      expect(reservationMicros(estimate, pricing)).toBe(188n) // 1,000 × 0.1875 = 187.5 → 188
      expect(costMicros(estimate, pricing)).toBe(150n)
      expect(reservationMicros(estimate, { ...pricing, cacheWrite: null })).toBe(150n)
    })

    test('a burst of calls billed above their reservations: balance = credit − Σ cost exactly; the next call gets 402', async () => {
      const reserved = await reservationOfOneCall()
      expect(reserved).toBeGreaterThan(0n)
      expect(reserved).toBeLessThan(COST)
      const n = 4
      // The least balance that admits n calls at once: the last needs credit − 2·(n−1)·r ≥ r.
      const credit = reserved * BigInt(2 * n - 1)
      const u = await userWith(credit)
      // All n are admitted before any is billed: the upstream holds them until the last arrives.
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      up.script(...Array.from({ length: n }, () => ({ kind: 'fn' as const, handle: async () => (await gate, Response.json(OVERRUN)) })))
      const before = up.seen.length
      const calls = Array.from({ length: n }, () => postChat(gw, u.key, { max_tokens: 100 }))
      await until(() => up.seen.length === before + n, 'all calls at the upstream')
      release()
      const answered = await Promise.all(calls)
      for (const res of answered) expect(res.status).toBe(200)
      const seen = up.seen.length
      await expectChatError(await postChat(gw, u.key, { max_tokens: 100 }), 402, 'PAYMENT_REQUIRED')
      expect(up.seen.length).toBe(seen)
      await gw.settled()
      await expectExactBooks(
        gw,
        u.userId,
        credit,
        answered.map((r) => ({ requestId: r.headers.get('x-request-id')!, cost: COST })),
      )
      const { balance } = await gw.books(u.userId)
      expect(balance).toBe(credit - BigInt(n) * COST)
      expect(await reservedNow(gw, u.userId)).toBe(0n)
    }, 60_000)
  })
}
