// POST /v1/embeddings billed and failed over like every other call (docs/api.md "Embeddings",
// "What a call is billed"): the upstream's usage.prompt_tokens billed at the input price, an
// estimate from the input when it reports none, a reservation from the input's size released
// at the end, failover before the first byte, one request_logs row and the metrics of the
// `embeddings` protocol. Balance == credit − Σ ledger to the micro-USD.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { embeddingModel, embeddingsAnswer, embeddingsBehaviour } from '../helpers/embeddings.ts'
import { logOf } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, bearer, simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { expectExactBooks, reservedNow } from '../helpers/money.ts'
import { delta, Exposition } from '../helpers/prometheus.ts'

const embed = (gw: TestGateway, key: string, body: Record<string, unknown>) =>
  gw.request('/v1/embeddings', { method: 'POST', headers: bearer(key), body: JSON.stringify({ model: 'acme/embed-1', ...body }) })

const scrape = async (gw: TestGateway) => new Exposition(await (await gw.request('/metrics')).text())

for (const backends of ALL_BACKENDS) {
  describe(`embeddings billing and failover on ${backends.db}+${backends.store}`, () => {
    let a: FakeUpstream
    let b: FakeUpstream
    let gw: TestGateway
    beforeAll(async () => {
      a = startFakeUpstream(embeddingsBehaviour())
      b = startFakeUpstream(embeddingsBehaviour())
      const catalog = simpleCatalog([
        { id: 'gw-a', url: a.url },
        { id: 'gw-b', url: b.url },
      ])
      catalog.models.push(embeddingModel(['gw-a', 'gw-b']))
      gw = await startTestGateway(backends, catalog)
    }, 30_000)
    afterAll(async () => {
      await gw.stop()
      a.stop()
      b.stop()
    })

    test('usage billed at the input price, estimated from the input when absent; books exact, nothing left reserved', async () => {
      const u = await gw.user(1)
      const before = await scrape(gw)
      // 400 inputs of 40 characters: the fake counts 10 tokens each → 4,000 × $0.13/1M = 520 micro-USD.
      const batch = await embed(gw, u.key, { input: Array.from({ length: 400 }, (_, i) => `${i}`.padEnd(40, '.')) })
      expect(batch.status).toBe(200)
      const batchBody = (await batch.json()) as any
      expect(batchBody.usage).toEqual({ prompt_tokens: 4000, total_tokens: 4000 })
      expect(batchBody.svc).toMatchObject({ cost: 0.00052, usageSource: 'upstream', gateway: 'gw-a' })
      // No usage from the upstream: 300 characters estimate to 100 tokens → 13 micro-USD.
      a.script(embeddingsBehaviour({ usage: false }))
      const bare = await embed(gw, u.key, { input: 'x'.repeat(300) })
      const bareBody = (await bare.json()) as any
      expect(bareBody.usage).toBeUndefined()
      expect(bareBody.svc).toMatchObject({ cost: 0.000013, usageSource: 'none' })
      await gw.settled()
      const ids = [batch, bare].map((r) => r.headers.get('x-request-id')!)
      await expectExactBooks(gw, u.userId, 1_000_000n, [
        { requestId: ids[0]!, cost: 520n },
        { requestId: ids[1]!, cost: 13n },
      ])
      expect(await reservedNow(gw, u.userId)).toBe(0n)
      expect(await logOf(gw, ids[0]!)).toMatchObject({
        protocol: 'embeddings',
        model: 'acme/embed-1',
        gateway: 'gw-a',
        status: 200,
        inputTokens: 4000,
        outputTokens: 0,
        costMicros: 520n,
        usageSource: 'upstream',
      })
      expect(await logOf(gw, ids[1]!)).toMatchObject({ inputTokens: 100, outputTokens: 0, costMicros: 13n, usageSource: 'none' })
      const after = await scrape(gw)
      const d = (name: string, labels: Record<string, string> = {}) => delta(before, after, name, labels)
      expect(d('tollgate_requests_total', { protocol: 'embeddings', model: 'acme/embed-1', status_class: '2xx' })).toBe(2)
      expect(d('tollgate_tokens_total', { model: 'acme/embed-1', kind: 'input' })).toBe(4100)
      expect(d('tollgate_cost_micros_total', { model: 'acme/embed-1' })).toBe(533)
    })

    test('the reservation is the input size at the input price, held while the upstream works', async () => {
      const u = await gw.user(1)
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      let arrived!: () => void
      const reached = new Promise<void>((r) => (arrived = r))
      a.script({
        kind: 'fn',
        handle: async (_req, body) => {
          arrived()
          await gate
          return new Response(embeddingsAnswer(body), { headers: { 'content-type': 'application/json' } })
        },
      })
      // 3,000 characters estimate to 1,000 tokens → 130 micro-USD reserved; no output is reserved.
      const pending = embed(gw, u.key, { input: ['y'.repeat(1_000), 'z'.repeat(2_000)] })
      await reached
      expect(await reservedNow(gw, u.userId)).toBe(130n)
      release()
      expect((await pending).status).toBe(200)
      await gw.settled()
      expect(await reservedNow(gw, u.userId)).toBe(0n)
    })

    test('failover before the first byte: a 500 and an unreadable answer move the call on, billed once', async () => {
      const u = await gw.user(1)
      for (const failure of [
        { kind: 'status' as const, status: 500 },
        { kind: 'json' as const, body: '{"object":"list","data":[[0.1,' },
      ]) {
        a.script(failure)
        const before = b.seen.length
        const res = await embed(gw, u.key, { input: 'abcdefgh' })
        expect(res.status).toBe(200)
        expect(((await res.json()) as any).svc).toMatchObject({ gateway: 'gw-b', cost: 0.000001 })
        expect(b.seen.length).toBe(before + 1)
        expect(b.seen.at(-1)!.path).toBe('/v1/embeddings')
      }
      a.script({ kind: 'status', status: 503 })
      b.script({ kind: 'status', status: 502 })
      const failed = await embed(gw, u.key, { input: 'abcdefgh' })
      expect(failed.status).toBe(502)
      expect(((await failed.json()) as any).error.code).toBe('UPSTREAM_ERROR')
      await gw.settled()
      expect(await gw.books(u.userId)).toEqual({ balance: 1_000_000n - 2n, ledgerSum: 1_000_000n - 2n })
      expect(await reservedNow(gw, u.userId)).toBe(0n)
      expect(await logOf(gw, failed.headers.get('x-request-id')!)).toMatchObject({ costMicros: 0n, errorCode: 'UPSTREAM_ERROR' })
    })
  })
}
