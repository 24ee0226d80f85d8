// How a call ends × every protocol pair × stream and JSON (docs/api.md "What a call is billed",
// docs/failover.md "Who ended the call"): each end is billed exactly the billing rule's value for
// what the upstream reported and what reached the client — never message_start's placeholder —
// and an end the client or the drain caused touches no breaker, makes no retry and counts none.
// Each (end, protocol pair) has a gateway of its own whose breaker opens on one failure, so
// a failure recorded anywhere shows.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { billFor, type BilledEnd, type CallTally } from '../../src/billing/bill.ts'
import { estimateUsage } from '../../src/billing/estimate.ts'
import { costMicros } from '../../src/billing/pricing.ts'
import type { CatalogFile } from '../../src/catalog/file.ts'
import type { ReportedUsage, Usage } from '../../src/core/usage.ts'
import { protocolSpokes } from '../../src/protocols/registry.ts'
import { routeKey, gatewayKey } from '../../src/routing/breakers.ts'
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.ts'
import { ALL_BACKENDS, bearer, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { byteLength, END_MARK, FINAL, joinParts, longJson, longStream, TEXT_CHARS, type UpstreamProtocol } from '../helpers/long-streams.ts'
import { expectExactBooks, reservedNow } from '../helpers/money.ts'
import { until } from '../helpers/until.ts'
import { eq } from 'drizzle-orm'
import { requestLogs } from '../../src/db/schema/index.ts'

type Inbound = 'chat' | 'messages' | 'responses'
const INBOUNDS: Inbound[] = ['chat', 'messages', 'responses']
// The three vendor wires and the clouds' (docs/providers.md "Cloud providers").
const UPSTREAMS: UpstreamProtocol[] = [
  'openai-chat',
  'anthropic-messages',
  'openai-responses',
  'bedrock-anthropic',
  'bedrock-converse',
  'vertex-anthropic',
]
const PATH: Record<Inbound, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }
const ENDS = [
  'completes',
  'cut',
  'error-event',
  'client-leaves',
  'idle',
  'drain',
  'json-completes',
  'json-fails',
  'fails',
  'json-client-leaves',
  'json-drain',
] as const
const IDLE_MS = 300

function catalog(ups: Record<UpstreamProtocol, FakeUpstream>): CatalogFile {
  const pairs = ENDS.flatMap((end) => INBOUNDS.flatMap((inbound) => UPSTREAMS.map((p) => ({ end, p, id: `${end}-${inbound}-${p}` }))))
  return {
    gateways: pairs.map(({ end, p, id }) => ({
      id: `gw-${id}`,
      protocol: p,
      baseUrl: `${ups[p].url}/v1`,
      ...(p.startsWith('bedrock-')
        ? { auth: { type: 'aws-sigv4' as const, region: 'us-east-1', accessKeyId: 'AKIAENDS', secretAccessKey: 'ends-secret' } }
        : { apiKey: 'sk-upstream-secret' }),
      timeoutMs: end === 'idle' ? IDLE_MS : 10_000,
      policy: { retries: 2, backoffMs: 10, firstTokenMs: 5_000, breaker: { failures: 1, cooldownMs: 600_000 } },
    })),
    models: pairs.map(({ id }) => ({
      id: `e/${id}`,
      name: id,
      provider: 'e',
      contextWindow: 200_000,
      capabilities: ['text', 'streaming'],
      // $1 / $10 per 1M tokens: 8,000 characters delivered (2,000 tokens) cost 20,000 µUSD.
      pricing: { input: 1, output: 10 },
      routes: [{ gateway: `gw-${id}`, model: 'up-model' }],
    })),
  }
}

function body(inbound: Inbound, model: string, stream: boolean): Record<string, unknown> {
  const prompt = 'Tell me a long story about a lighthouse keeper.'
  if (inbound === 'chat') return { model, stream, max_tokens: 4096, messages: [{ role: 'user', content: prompt }] }
  if (inbound === 'messages') return { model, stream, max_tokens: 4096, messages: [{ role: 'user', content: prompt }] }
  return { model, stream, max_output_tokens: 4096, input: prompt }
}

for (const backends of ALL_BACKENDS)
  describe(`how a call ends on ${backends.db}+${backends.store}`, () => {
    let gw: TestGateway
    let base: string
    const ups = {} as Record<UpstreamProtocol, FakeUpstream>
    const users: { userId: string; key: string }[] = []

    beforeAll(async () => {
      for (const p of UPSTREAMS) ups[p] = startFakeUpstream()
      gw = await startTestGateway(backends, catalog(ups))
      base = gw.listen()
    })
    afterAll(async () => {
      await gw.stop()
      for (const p of UPSTREAMS) ups[p].stop()
    })

    const router = () => gw.runtime.deps.router
    const logsOf = (userId: string) => gw.runtime.deps.db.select().from(requestLogs).where(eq(requestLogs.userId, userId))
    const spokes = () => protocolSpokes(gw.runtime.deps.config)

    /** The reservation's estimate for a request, as admission computed it. */
    function estimateOf(inbound: Inbound, raw: Record<string, unknown>): Usage {
      const spoke = spokes()[inbound] as {
        estimateInput(b: unknown): { promptChars: number; maxTokens: number | undefined; choices: number }
        parse(r: unknown): unknown
      }
      const est = spoke.estimateInput(spoke.parse(raw))
      const defaultCap = gw.runtime.deps.config.defaultMaxOutputTokens
      return estimateUsage(est.promptChars, { requested: est.maxTokens, choices: est.choices, defaultCap, contextWindow: 200_000 })
    }

    async function send(inbound: Inbound, model: string, stream: boolean) {
      const u = await gw.user(5)
      users.push(u)
      const raw = body(inbound, model, stream)
      const client = new AbortController()
      const res = fetch(`${base}${PATH[inbound]}`, {
        method: 'POST',
        headers: bearer(u.key),
        body: JSON.stringify(raw),
        signal: client.signal,
      })
      return { u, raw, client, res }
    }

    /** Reads the client's stream until `until` holds of the text, or it ends. */
    async function readUntil(res: Response, until: (text: string) => boolean): Promise<string> {
      const reader = res.body!.getReader()
      const dec = new TextDecoder()
      let text = ''
      try {
        while (!until(text)) {
          const r = await reader.read()
          if (r.done) break
          text += dec.decode(r.value)
        }
      } catch {}
      return text
    }

    /** The user's one call, once written (a client that left never sees its request id). */
    async function logOfUser(userId: string) {
      await until(async () => (await gw.settled(), (await logsOf(userId)).length > 0), 'the call to be settled and written')
      const rows = await logsOf(userId)
      expect(rows).toHaveLength(1)
      return rows[0]!
    }

    /** The call's log row against the billing rule's value for how it ended and what was known. */
    async function expectBilled(
      userId: string,
      inbound: Inbound,
      raw: Record<string, unknown>,
      end: BilledEnd,
      tally: CallTally,
      status: number,
    ) {
      const log = await logOfUser(userId)
      const { usage, source } = billFor(estimateOf(inbound, raw), end, tally)
      expect({ status: log.status, usageSource: log.usageSource, input: log.inputTokens, output: log.outputTokens }).toEqual({
        status,
        usageSource: source,
        input: usage.inputTokens,
        output: usage.outputTokens,
      })
      const found = gw.runtime.deps.catalog.lookup(log.model)
      if (!found.ok) throw new Error(`model ${log.model} not in the catalog`)
      expect(log.costMicros).toBe(costMicros(usage, found.model.pricing))
      return log
    }

    const finalUsage = (): ReportedUsage => ({
      usage: { inputTokens: FINAL.input, outputTokens: FINAL.output, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      final: true,
    })
    /** What an upstream had reported when its stream was cut after the text: Anthropic's placeholder, else nothing. */
    const cutReport = (p: UpstreamProtocol): ReportedUsage | undefined =>
      p === 'anthropic-messages' || p === 'bedrock-anthropic' || p === 'vertex-anthropic'
        ? {
            usage: { inputTokens: FINAL.input, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
            final: false,
          }
        : undefined
    const delivered = (p: UpstreamProtocol): CallTally => ({ reported: cutReport(p), started: true, deliveredChars: TEXT_CHARS })
    const phases = (id: string) => {
      const route = { gateway: { id: `gw-${id}` }, upstreamModel: 'up-model' } as never
      return [router().breakers.phase(gatewayKey(route)), router().breakers.phase(routeKey(route))]
    }

    for (const inbound of INBOUNDS)
      for (const p of UPSTREAMS) {
        const pair = `${inbound} → ${p}`
        test(`${pair}: completes — billed the final usage`, async () => {
          ups[p].script({ kind: 'sse', text: joinParts(longStream(p).head, longStream(p).tail) })
          const c = await send(inbound, `e/completes-${inbound}-${p}`, true)
          const res = await c.res
          const text = await readUntil(res, () => false)
          expect(text).toContain(END_MARK)
          await expectBilled(
            c.u.userId,
            inbound,
            c.raw,
            { kind: 'completed' },
            { reported: finalUsage(), started: true, deliveredChars: TEXT_CHARS },
            200,
          )
        })

        test(`${pair}: upstream cut after the text — billed the text delivered, the route's breaker counts it`, async () => {
          const s = longStream(p)
          ups[p].script({ kind: 'drop', text: joinParts(s.head, s.tail), bytes: byteLength(s.head) })
          const c = await send(inbound, `e/cut-${inbound}-${p}`, true)
          const res = await c.res
          expect(await readUntil(res, () => false)).toContain(END_MARK)
          const log = await expectBilled(c.u.userId, inbound, c.raw, { kind: 'upstream_failed', afterFirstByte: true }, delivered(p), 502)
          // 2,000 output tokens at $10 per 1M: the whole text read is paid, not one token.
          expect(log.outputTokens).toBe(TEXT_CHARS / 4)
          expect(phases(`cut-${inbound}-${p}`)).toEqual(['closed', 'open'])
        })

        test(`${pair}: upstream error event after the text — billed the text delivered, counted`, async () => {
          const s = longStream(p)
          ups[p].script({ kind: 'sse', text: joinParts(s.head, s.errorEvent) })
          const c = await send(inbound, `e/error-event-${inbound}-${p}`, true)
          const res = await c.res
          expect(await readUntil(res, () => false)).toContain(END_MARK)
          await expectBilled(c.u.userId, inbound, c.raw, { kind: 'upstream_failed', afterFirstByte: true }, delivered(p), 502)
          expect(phases(`error-event-${inbound}-${p}`)).toEqual(['closed', 'open'])
        })

        test(`${pair}: client leaves after the text — billed the text delivered; no breaker, retry or second attempt`, async () => {
          const seen = ups[p].seen.length
          const counters = { ...router().counters.snapshot() }
          ups[p].script({ kind: 'stall', text: longStream(p).head })
          const c = await send(inbound, `e/client-leaves-${inbound}-${p}`, true)
          const res = await c.res
          expect(await readUntil(res, (t) => t.includes(END_MARK))).toContain(END_MARK)
          c.client.abort()
          await expectBilled(c.u.userId, inbound, c.raw, { kind: 'client_left' }, delivered(p), 499)
          expect(phases(`client-leaves-${inbound}-${p}`)).toEqual(['closed', 'closed'])
          expect(ups[p].seen.length).toBe(seen + 1)
          expect(router().counters.snapshot()).toMatchObject({ retries: counters.retries, breakerOpened: counters.breakerOpened })
        })

        test(`${pair}: upstream idle past its timeout — billed the text delivered, the gateway's breaker counts it`, async () => {
          ups[p].script({ kind: 'stall', text: longStream(p).head })
          const c = await send(inbound, `e/idle-${inbound}-${p}`, true)
          const res = await c.res
          expect(await readUntil(res, () => false)).toContain(END_MARK)
          await expectBilled(c.u.userId, inbound, c.raw, { kind: 'upstream_failed', afterFirstByte: true }, delivered(p), 502)
          expect(phases(`idle-${inbound}-${p}`)[0]).toBe('open')
        })

        test(`${pair} JSON: completes — billed the final usage`, async () => {
          ups[p].script({ kind: 'json', body: longJson(p) })
          const c = await send(inbound, `e/json-completes-${inbound}-${p}`, false)
          const res = await c.res
          expect(res.status).toBe(200)
          expect(await res.text()).toContain(END_MARK)
          await expectBilled(
            c.u.userId,
            inbound,
            c.raw,
            { kind: 'completed' },
            { reported: finalUsage(), started: false, deliveredChars: 0 },
            200,
          )
        })

        for (const stream of [true, false]) {
          const label = stream ? pair : `${pair} JSON`
          const model = `${stream ? '' : 'json-'}fails-${inbound}-${p}`
          test(`${label}: every attempt fails before the first byte — nothing billed, breaker open`, async () => {
            ups[p].script({ kind: 'status', status: 503 }, { kind: 'status', status: 503 }, { kind: 'status', status: 503 })
            const c = await send(inbound, `e/${model}`, stream)
            const res = await c.res
            expect(res.status).toBe(502)
            await expectBilled(
              c.u.userId,
              inbound,
              c.raw,
              { kind: 'upstream_failed', afterFirstByte: false },
              { reported: undefined, started: false, deliveredChars: 0 },
              502,
            )
            expect(phases(model)[1]).toBe('open')
          })
        }

        test(`${pair} JSON: client leaves while the upstream works — prompt estimate; no breaker, no retry`, async () => {
          const seen = ups[p].seen.length
          const retries = router().counters.retries
          const aborted = ups[p].aborted
          ups[p].script({ kind: 'hang' })
          const c = await send(inbound, `e/json-client-leaves-${inbound}-${p}`, false)
          await until(() => ups[p].seen.length > seen, 'the upstream to be working on the call')
          c.client.abort()
          await c.res.catch(() => {})
          // The gateway aborted its upstream request when the client left.
          await ups[p].whenAborted(aborted + 1)
          await expectBilled(
            c.u.userId,
            inbound,
            c.raw,
            { kind: 'client_left' },
            { reported: undefined, started: false, deliveredChars: 0 },
            499,
          )
          expect(phases(`json-client-leaves-${inbound}-${p}`)).toEqual(['closed', 'closed'])
          expect(ups[p].seen.length).toBe(seen + 1)
          expect(router().counters.retries).toBe(retries)
        })
      }

    test('drain cut, every pair, streams after their text and JSON calls still waiting: the protocol error, billed the rule, no breaker', async () => {
      const calls: {
        inbound: Inbound
        p: UpstreamProtocol
        stream: boolean
        c: Awaited<ReturnType<typeof send>>
        text: Promise<string>
      }[] = []
      for (const inbound of INBOUNDS)
        for (const p of UPSTREAMS) {
          ups[p].script({ kind: 'stall', text: longStream(p).head })
          const c = await send(inbound, `e/drain-${inbound}-${p}`, true)
          const res = await c.res
          let seenEnd!: () => void
          const reached = new Promise<void>((r) => (seenEnd = r))
          const text = readUntil(res, (t) => {
            if (t.includes(END_MARK)) seenEnd()
            return false
          })
          await reached
          calls.push({ inbound, p, stream: true, c, text })
        }
      for (const inbound of INBOUNDS)
        for (const p of UPSTREAMS) {
          const seen = ups[p].seen.length
          ups[p].script({ kind: 'hang' })
          const c = await send(inbound, `e/json-drain-${inbound}-${p}`, false)
          await until(() => ups[p].seen.length > seen, 'the upstream to be working on the call')
          calls.push({ inbound, p, stream: false, c, text: c.res.then((r) => r.text()) })
        }
      gw.runtime.deps.inflight.cut.fire()
      for (const call of calls) {
        const text = await call.text
        expect(text).toContain(call.stream ? (call.inbound === 'chat' ? 'SHUTTING_DOWN' : 'error') : 'shutting down')
        const tally = call.stream ? delivered(call.p) : { reported: undefined, started: false, deliveredChars: 0 }
        await expectBilled(call.c.u.userId, call.inbound, call.c.raw, { kind: 'drain' }, tally, 503)
        expect(phases(`${call.stream ? 'drain' : 'json-drain'}-${call.inbound}-${call.p}`)).toEqual(['closed', 'closed'])
      }
    })

    test('books exact for every account; nothing reserved', async () => {
      await gw.settled()
      for (const u of users) {
        const [log] = await logsOf(u.userId)
        await expectExactBooks(gw, u.userId, 5_000_000n, [{ requestId: log!.id, cost: log!.costMicros }])
        expect(await reservedNow(gw, u.userId)).toBe(0n)
      }
    })
  })
