// 50 parallel calls against a key limit that covers exactly 10: exactly 10 are served; against a
// balance of 9 reservations, 5 at once (each call in flight is covered twice, docs/operations.md
// "Overdraft"). The rest get 402, the balance never goes negative, every success is billed exactly
// once, and the ledger sums to the balance — for JSON answers, streams, and two instances
// sharing Postgres and Redis.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { accounts, ledgerEntries, requestLogs } from '../../src/db/schema/index.ts'
import {
  ALL_BACKENDS,
  bearer,
  chatBody,
  simpleCatalog,
  startTestGateway,
  type GatewayInstance,
  type TestGateway,
} from '../helpers/gateway.ts'
import { completionWithUsage, reservedOf, sseFrames } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { billedCalls, expectUsageCoversCalls } from '../helpers/money.ts'

// Every answer costs exactly its reservation: "Say hello" (9 chars + 4) → 5 prompt tokens,
// max_tokens 100 → 5*0.15 + 100*0.6 = 60.75 → 61 micro-USD; the upstream reports 5 + 100 tokens.
const RESERVE = 61n
const PARALLEL = 50
const COVERED = 10
/** A balance of 9 reservations admits 5 at once: 9 − 2 × 4 ≥ 1 is the last (src/store/balance-cover.ts). */
const BALANCE_CALLS = 9
const AT_ONCE = 5

const chunk = (extra: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1, model: 'upstream-secret-model', ...extra })}\n\n`
const STREAM =
  chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }) +
  chunk({ choices: [{ index: 0, delta: { content: 'hello' }, finish_reason: null }] }) +
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
  chunk({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 100, total_tokens: 105 } }) +
  'data: [DONE]\n\n'

type Result = { status: number; id: string; text: string }

for (const backends of ALL_BACKENDS) {
  describe(`concurrency on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    /** While set, the upstream holds every answer until each call of the burst was admitted or refused. */
    let burst: { arrived: number; refused: number; release: () => void; decided: Promise<void> } | undefined
    const decided = () => {
      if (burst && burst.arrived + burst.refused === PARALLEL) burst.release()
    }
    beforeAll(async () => {
      up = startFakeUpstream({
        kind: 'fn',
        handle: async (_req, body) => {
          if (burst) {
            burst.arrived++
            decided()
            await burst.decided
          }
          await Bun.sleep(5) // the calls overlap upstream
          return body.stream
            ? new Response(STREAM, { headers: { 'content-type': 'text/event-stream' } })
            : Response.json(completionWithUsage(5, 100))
        },
      })
      // A generous upstream timeout: a burst of 400 calls on a busy machine must not fail for want of time.
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url, timeoutMs: 20_000 }]))
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    async function fire(
      instances: Pick<GatewayInstance, 'request'>[],
      key: string,
      extra: Record<string, unknown> = {},
    ): Promise<Result[]> {
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      burst = { arrived: 0, refused: 0, release, decided: held }
      const results = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          instances[i % instances.length]!.request('/v1/chat/completions', {
            method: 'POST',
            headers: bearer(key),
            body: chatBody({ max_tokens: 100, ...extra }),
          }).then(async (r) => {
            if (r.status !== 200 && burst) burst.refused++
            decided()
            return { status: r.status, id: r.headers.get('x-request-id')!, text: await r.text() }
          }),
        ),
      )
      burst = undefined
      return results
    }

    /** Exactly `served` served, the rest 402; books, ledger and logs agree; nothing left reserved. */
    async function expectExactlyCovered(u: { userId: string }, results: Result[], refusal: string, served = COVERED) {
      const ok = results.filter((r) => r.status === 200)
      const refused = results.filter((r) => r.status === 402)
      expect(ok).toHaveLength(served)
      expect(refused).toHaveLength(PARALLEL - served)
      for (const r of refused) {
        const body = JSON.parse(r.text)
        expect(body).toMatchObject({ status: 'error', error: { code: 'PAYMENT_REQUIRED' } })
        expect(body.error.message).toContain(refusal)
      }
      await gw.settled()
      expect(await reservedOf(gw, u.userId)).toBe(0n)
      const [acct] = await gw.runtime.deps.db.select().from(accounts).where(eq(accounts.userId, u.userId))
      expect(acct!.balanceMicros).toBeGreaterThanOrEqual(0n)
      const books = await gw.books(u.userId)
      expect(books.ledgerSum).toBe(books.balance)
      // Billed exactly once per success: each successful call's log has its cost and names a usage
      // entry; the entries are exactly the calls naming them.
      const calls = await billedCalls(
        gw.runtime.deps.db,
        ok.map((r) => r.id),
      )
      expect(calls).toHaveLength(ok.length)
      for (const c of calls) expect(c.cost).toBe(RESERVE)
      await expectUsageCoversCalls(gw.runtime.deps.db, u.userId)
      const entries = await gw.runtime.deps.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.userId, u.userId))
        .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
      // The balance never went negative: the running sum of the ledger stays at or above zero.
      let running = 0n
      for (const e of entries) {
        running += e.amountMicros
        expect(running).toBeGreaterThanOrEqual(0n)
      }
      const logs = await gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, u.userId))
      expect(logs).toHaveLength(PARALLEL)
      expect(logs.filter((l) => l.status === 402)).toHaveLength(PARALLEL - served)
      return { ok, books }
    }

    test('JSON answers: admits what the balance covers at once and bills each success once', async () => {
      const u = await gw.user(Number(RESERVE * BigInt(BALANCE_CALLS)) / 1e6, { rpm: 1_000 })
      const { ok, books } = await expectExactlyCovered(u, await fire([gw], u.key), 'balance', AT_ONCE)
      for (const r of ok) expect(JSON.parse(r.text).svc.cost).toBe(0.000061)
      expect(books.balance).toBe(RESERVE * BigInt(BALANCE_CALLS - AT_ONCE))
    })

    test('streams: admits what the balance covers at once; each admitted stream completes and is billed once', async () => {
      const u = await gw.user(Number(RESERVE * BigInt(BALANCE_CALLS)) / 1e6, { rpm: 1_000 })
      const results = await fire([gw], u.key, { stream: true })
      const { ok, books } = await expectExactlyCovered(u, results, 'balance', AT_ONCE)
      for (const r of ok) {
        const frames = sseFrames(r.text)
        expect(frames.at(-1)).toBe('data: [DONE]')
        expect(JSON.parse(frames.at(-2)!.slice(6)).svc.cost).toBe(0.000061)
      }
      expect(books.balance).toBe(RESERVE * BigInt(BALANCE_CALLS - AT_ONCE))
    })

    test('a key spend limit covering 10 calls admits exactly 10 of 50, whatever the balance', async () => {
      const u = await gw.user(1, { rpm: 1_000, limit: Number(RESERVE * BigInt(COVERED)) / 1e6 })
      const { books } = await expectExactlyCovered(u, await fire([gw], u.key), 'limit')
      expect(books.balance).toBe(1_000_000n - RESERVE * BigInt(COVERED))
    })

    test('a burst on a new key: one key lookup and one mirror load for all its calls, every call answered and billed once', async () => {
      const u = await gw.user(1, { rpm: 10_000 })
      const { auth, store } = gw.runtime.deps
      let lookups = 0
      let loads = 0
      const spied = auth as unknown as { load: (hash: string) => Promise<unknown> }
      const load = spied.load.bind(auth)
      spied.load = (hash) => (lookups++, load(hash))
      const loadAccount = store.loadAccount.bind(store)
      store.loadAccount = (...args) => (loads++, loadAccount(...args))
      try {
        const BURST = 400
        const results = await Promise.all(
          Array.from({ length: BURST }, () =>
            gw.request('/v1/chat/completions', { method: 'POST', headers: bearer(u.key), body: chatBody({ max_tokens: 100 }) }),
          ),
        )
        expect(results.map((r) => r.status)).toEqual(Array.from({ length: BURST }, () => 200))
        expect(lookups).toBe(1)
        expect(loads).toBe(1)
        await gw.settled()
        expect(await reservedOf(gw, u.userId)).toBe(0n)
        const books = await gw.books(u.userId)
        expect(books).toEqual({ balance: 1_000_000n - RESERVE * BigInt(BURST), ledgerSum: 1_000_000n - RESERVE * BigInt(BURST) })
      } finally {
        spied.load = load
        store.loadAccount = loadAccount
      }
    })

    if (backends.store === 'redis') {
      test('two instances sharing Postgres and Redis admit what the balance covers at once between them', async () => {
        const peer = await gw.peer()
        const u = await gw.user(Number(RESERVE * BigInt(BALANCE_CALLS)) / 1e6, { rpm: 1_000 })
        // Even calls to one instance, odd calls to the other.
        const { books } = await expectExactlyCovered(u, await fire([gw, peer], u.key), 'balance', AT_ONCE)
        expect(books.balance).toBe(RESERVE * BigInt(BALANCE_CALLS - AT_ONCE))
      })
    }
  })
}
