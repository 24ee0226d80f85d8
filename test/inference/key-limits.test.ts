// A key's own limits on /v1 (docs/api.md "Key settings"): tpm and maxConcurrent hold exactly
// across instances (three on one Postgres and Redis; one embedded), a refusal is a 429 with
// Retry-After and reserves nothing, the token window is corrected to the billed tokens, and a
// limit with limitReset starts again with the next period (an injected clock). The books stay exact.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spendPeriod } from '../../src/billing/spend-period.ts'
import { ADMIN_TOKEN, ALL_BACKENDS, type GatewayInstance, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { completionWithUsage, expectChatError, postChat, reservedOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { until } from '../helpers/until.ts'

const BODY = { max_tokens: 100 }
/** The smallest reservation: a spend limit of a few micro-USD admits one call. */
const TINY = { max_tokens: 1 }

for (const backends of ALL_BACKENDS) {
  describe(`key limits on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let up: FakeUpstream
    let instances: GatewayInstance[]
    /** Upstream answers wait for this gate while it is closed. */
    let gate: Promise<void> = Promise.resolve()
    let open = () => {}
    let held = 0
    beforeAll(async () => {
      up = startFakeUpstream({
        kind: 'fn',
        handle: async () => {
          held++
          await gate
          held--
          return Response.json(completionWithUsage(10, 5))
        },
      })
      gw = await startTestGateway(backends, simpleCatalog([{ id: 'gw-a', url: up.url, timeoutMs: 30_000 }]))
      instances = backends.store === 'redis' ? [gw, await gw.peer(), await gw.peer()] : [gw]
    })
    afterAll(async () => {
      open()
      await gw.stop()
      up.stop()
    })

    const close = () => {
      gate = new Promise((resolve) => (open = resolve))
    }
    /** `n` calls spread over the instances; `answered` counts those answered so far. */
    let answered = 0
    const spread = (key: string, n: number) => {
      answered = 0
      return Array.from({ length: n }, (_, i) =>
        instances[i % instances.length]!.request('/v1/chat/completions', postInit(key)).then((r) => {
          answered++
          return r
        }),
      )
    }
    const postInit = (key: string): RequestInit => ({
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Say hello' }], ...BODY }),
    })

    test('tpm: the estimate is counted at admission and exactly as many calls as fit are admitted across instances', async () => {
      const probe = await gw.user(5, { tpm: 1_000_000 })
      const first = await postChat(gw, probe.key, BODY)
      const perCall = 1_000_000 - Number(first.headers.get('x-ratelimit-remaining-tokens'))
      expect(first.headers.get('x-ratelimit-limit-tokens')).toBe('1000000')
      expect(perCall).toBeGreaterThan(100)

      const k = await gw.user(5, { tpm: perCall * 4 + Math.floor(perCall / 2) })
      close()
      const calls = spread(k.key, 12)
      // Every admission is decided while the admitted calls are held: none has settled yet.
      await until(() => held === 4 && answered === 8, '4 calls held upstream and 8 answered')
      open()
      const all = await Promise.all(calls)
      expect(all.filter((r) => r.status === 200)).toHaveLength(4)
      const refused = all.filter((r) => r.status === 429)
      expect(refused).toHaveLength(8)
      const err = await expectChatError(refused[0]!, 429, 'RATE_LIMITED')
      expect(err.message).toContain('tokens per minute')
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused[0]!.headers.get('x-ratelimit-remaining-tokens')).not.toBeNull()
      await gw.settled()
      expect(await reservedOf(gw, k.userId)).toBe(0n)
      const books = await gw.books(k.userId)
      expect(books.balance).toBe(books.ledgerSum)
    })

    test('tpm: settlement gives back what was reserved and not billed', async () => {
      const probe = await gw.user(5, { tpm: 1_000_000 })
      const perCall = 1_000_000 - Number((await postChat(gw, probe.key, BODY)).headers.get('x-ratelimit-remaining-tokens'))
      // Room for one call's estimate and a little: the second fits only once the first is billed its 15 tokens.
      const k = await gw.user(5, { tpm: perCall + 20 })
      expect((await postChat(gw, k.key, BODY)).status).toBe(200)
      await gw.runtime.deps.inflight.settled()
      const second = await postChat(gw, k.key, BODY)
      expect(second.status).toBe(200)
      expect(Number(second.headers.get('x-ratelimit-remaining-tokens'))).toBe(20 - 15)
    })

    test('maxConcurrent: exactly that many calls in flight across instances; a call that ends frees its place', async () => {
      const k = await gw.user(5, { maxConcurrent: 2 })
      close()
      const calls = spread(k.key, 9)
      await until(() => held === 2 && answered === 7, '2 calls held upstream and 7 answered')
      open()
      const all = await Promise.all(calls)
      expect(all.filter((r) => r.status === 200)).toHaveLength(2)
      const limited = all.filter((r) => r.status === 429)
      expect(limited).toHaveLength(7)
      expect(limited[0]!.headers.get('retry-after')).toBe('1')
      expect((await expectChatError(limited[0]!, 429, 'RATE_LIMITED')).message).toContain('in flight')
      // Both calls ended and settled (each instance's settlement follows its answer): two places again, on any instance.
      for (const i of instances) await i.runtime.deps.inflight.settled()
      const again = await Promise.all([instances.at(-1)!, gw].map((i) => i.request('/v1/chat/completions', postInit(k.key))))
      expect(again.map((r) => r.status)).toEqual([200, 200])
      await gw.settled()
      expect(await reservedOf(gw, k.userId)).toBe(0n)
      const books = await gw.books(k.userId)
      expect(books.balance).toBe(books.ledgerSum)
    })

    test('limitReset: a daily limit refuses once spent and admits again the next UTC day; the listing shows the period', async () => {
      // A call reserves about 3 micro-USD and is billed 5 (10 + 5 tokens): one fits in 6, not two.
      const k = await gw.user(5, { limit: 0.000006, limitReset: 'daily' })
      const realNow = gw.runtime.deps.now
      try {
        expect((await postChat(gw, k.key, TINY)).status).toBe(200)
        await gw.settled()
        const spent = await postChat(gw, k.key, TINY)
        expect(spent.status).toBe(402)
        const tomorrow = spendPeriod('daily', Date.now()).endMs + 1_000
        gw.runtime.deps.now = () => tomorrow
        const listing = await gw.request(`/api/admin/users/${k.userId}/keys`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
        const [item] = ((await listing.json()) as { items: { spent: number; resetsAt: string }[] }).items
        expect(item).toMatchObject({ spent: 0, resetsAt: new Date(spendPeriod('daily', tomorrow).endMs).toISOString() })
        expect((await postChat(gw, k.key, TINY)).status).toBe(200)
      } finally {
        gw.runtime.deps.now = realNow
      }
      await gw.settled()
      const books = await gw.books(k.userId)
      expect(books.balance).toBe(books.ledgerSum)
    })
  })
}
