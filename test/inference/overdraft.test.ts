// The overdraft bound (docs/operations.md "Overdraft"): an upstream that bills more tokens than
// the reservation assumed (here up to twice) overdraws a small balance by at most one call's
// reservation, however many streams run at once — the balance admits fewer calls at once as
// reservations pile up. The ledger stays exact: every answered call billed once, at the tokens the
// upstream reported; nothing left reserved.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { reservedOf, sseFrames } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, bearer, chatBody, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks } from '../helpers/money.ts'

// "Say hello" with max_tokens 100 reserves 5 × 0.15 + 100 × 0.6 = 60.75 → 61 micro-USD; the
// upstream reports 195 output tokens: 5 × 0.15 + 195 × 0.6 = 117.75 → 118, under twice 61.
const RESERVE = 61n
const COST = 118n
const STREAMS = 150

const chunk = (extra: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-o', object: 'chat.completion.chunk', created: 1, model: 'upstream-secret-model', ...extra })}\n\n`
const OVER_REPORTED =
  chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'hello' }, finish_reason: null }] }) +
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
  chunk({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 195, total_tokens: 200 } }) +
  'data: [DONE]\n\n'

for (const backends of ALL_BACKENDS) {
  describe(`overdraft under concurrency on ${backends.db}+${backends.store}`, () => {
    let up: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      up = startFakeUpstream({
        kind: 'fn',
        handle: async () => {
          await Bun.sleep(20) // the streams overlap upstream
          return new Response(OVER_REPORTED, { headers: { 'content-type': 'text/event-stream' } })
        },
      })
      // A generous upstream timeout: on a loaded machine 150 streams must not fail for want of time.
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url, timeoutMs: 20_000 }]))
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      up.stop()
    })

    for (const balance of [100n, 1_100n, 5_000n])
      test(`${STREAMS} streams at once on ${balance} micro-USD: overdrawn by less than one reservation, ledger exact`, async () => {
        const u = await gw.user(Number(balance) / 1e6, { rpm: 10_000 })
        const answers = await Promise.all(
          Array.from({ length: STREAMS }, () =>
            gw
              .request('/v1/chat/completions', {
                method: 'POST',
                headers: bearer(u.key),
                body: chatBody({ max_tokens: 100, stream: true }),
              })
              .then(async (r) => ({ status: r.status, id: r.headers.get('x-request-id')!, text: await r.text() })),
          ),
        )
        const served = answers.filter((a) => a.status === 200)
        expect(served.length).toBeGreaterThan(0)
        expect(answers.filter((a) => a.status !== 200 && a.status !== 402).map((a) => a.text)).toEqual([])
        for (const a of served) expect(JSON.parse(sseFrames(a.text).at(-2)!.slice(6)).svc.cost).toBe(Number(COST) / 1e6)
        await gw.settled()
        expect(await reservedOf(gw, u.userId)).toBe(0n)
        // Every answered stream billed once, at what the upstream reported; the books exact.
        await expectExactBooks(
          gw,
          u.userId,
          balance,
          served.map((a) => ({ requestId: a.id, cost: COST })),
        )
        const books = await gw.books(u.userId)
        // The bound: never below minus one reservation, whatever the concurrency.
        expect(books.balance).toBeGreaterThanOrEqual(-RESERVE)
      })
  })
}
