// Every recorded stream (test/fixtures), cut at 200 random byte offsets and replayed through the
// stream pipe on each inbound protocol — the same-protocol tee and both translations; and the
// cloud wires (docs/providers.md "Cloud providers"): the recorded Anthropic streams as Bedrock
// sends them (AWS event-stream chunks) and as Vertex does (the same SSE), and Converse streams
// in the documented shapes. Whatever
// the cut, the call is billed at least the billing rule's value for the text the client received
// (docs/api.md "What a call is billed"). The text is read from the client's own frames by an
// independent reader, so a tee or decoder that under-counts, or a placeholder usage taken as the
// bill, fails here.
import { describe, expect, test } from 'bun:test'
import { billFor } from '../../src/billing/bill.ts'
import { estimateDeliveredTokens } from '../../src/billing/estimate.ts'
import type { FrameTransform } from '../../src/core/frames.ts'
import type { Usage } from '../../src/core/usage.ts'
import { translateTransform } from '../../src/inference/stream-translate.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'
import type { CallContext } from '../../src/protocols/spoke.ts'
import { protocolSpokes } from '../../src/protocols/registry.ts'
import type { GatewayProtocol } from '../../src/core/gateway.ts'
import { adapterFor } from '../../src/providers/registry.ts'
import { CONVERSE_TEXT, CONVERSE_TOOLS, converseFrames } from '../helpers/converse-answers.ts'
import { anthropicEventsOf, bedrockChunks } from '../helpers/fake-clouds.ts'
import { type FixtureProtocol, fixtureJson, fixtureSse } from '../helpers/fixtures.ts'
import { pipeHarness } from '../helpers/pipe.ts'

type Inbound = 'chat' | 'messages' | 'responses'
const NATIVE: Record<Inbound, FixtureProtocol> = { chat: 'openai-chat', messages: 'anthropic-messages', responses: 'openai-responses' }
const CUTS = 200
const ESTIMATE: Usage = { inputTokens: 500, outputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }
const spokes = protocolSpokes({ creditsPerUsd: 1, creditSymbol: 'C' })
const ctx: CallContext = { requestId: 'resp_cut', publicId: 'resp_cut', slug: 'acme/m', created: 1, serviceMode: 'performance' }

/** A small seeded generator (mulberry32), so a failing offset can be replayed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The output characters a client of `inbound` received: text, reasoning and tool arguments in its frames. */
function clientChars(inbound: Inbound, body: string): number {
  let chars = 0
  for (const ev of new SseParser().push(body)) {
    if (ev.data === '[DONE]') continue
    let e: any
    try {
      e = JSON.parse(ev.data)
    } catch {
      continue
    }
    if (inbound === 'chat')
      for (const c of e.choices ?? []) {
        const d = c.delta ?? {}
        chars += String(d.content ?? '').length + String(d.reasoning_content ?? d.reasoning ?? '').length
        for (const t of d.tool_calls ?? []) chars += String(t.function?.arguments ?? '').length
      }
    else if (inbound === 'messages') {
      if (e.type === 'content_block_delta') chars += String(e.delta?.text ?? e.delta?.thinking ?? e.delta?.partial_json ?? '').length
      if (e.type === 'content_block_start') chars += String(e.content_block?.text ?? e.content_block?.thinking ?? '').length
    } else if (typeof e.type === 'string' && e.type.endsWith('.delta') && typeof e.delta === 'string') chars += e.delta.length
  }
  return chars
}

function transformFor(inbound: Inbound, upstream: GatewayProtocol): FrameTransform {
  const spoke = spokes[inbound]
  const adapter = adapterFor(upstream)
  return (adapter.speaks ?? upstream) === NATIVE[inbound]
    ? spoke.tee(ctx)
    : translateTransform(adapter.streamDecoder(), spoke.streamEncoder(ctx))
}

/** The upstream's bytes up to `at`, then a reset connection. */
function cutBody(bytes: Uint8Array, at: number): ReadableStream<Uint8Array> {
  let sent = false
  return new ReadableStream({
    pull(c) {
      if (!sent && at > 0) {
        sent = true
        return c.enqueue(bytes.slice(0, at))
      }
      c.error(new Error('connection reset'))
    },
  })
}

const streams = (p: FixtureProtocol) =>
  (fixtureJson(p, 'index.json') as { file: string; streaming: boolean }[]).filter((e) => e.streaming).map((e) => e.file)

/** Frames of one byte array. */
const joined = (frames: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(frames))

/** `CUTS` random cuts of `bytes` through the pipe as `upstream` sends them, on each inbound protocol. */
async function cutEverywhere(upstream: GatewayProtocol, bytes: Uint8Array) {
  const next = random(bytes.length)
  const adapter = adapterFor(upstream)
  for (let i = 0; i < CUTS; i++) {
    const at = Math.floor(next() * bytes.length)
    for (const inbound of ['chat', 'messages', 'responses'] as const) {
      const pipe = pipeHarness(cutBody(bytes, at).getReader(), transformFor(inbound, upstream), { svc: '{}', events: adapter.events?.() })
      const body = await new Response(pipe.body).text()
      const o = pipe.outcome!
      const billed = billFor(ESTIMATE, o.cause, o)
      const seen = clientChars(inbound, body)
      const where = `${inbound} cut at ${at}/${bytes.length}`
      if (billed.source === 'upstream') {
        // Only the upstream's final count is taken as the bill, never a placeholder.
        expect({ where, final: o.reported?.final }).toEqual({ where, final: true })
        continue
      }
      const floor = seen > 0 ? Math.min(ESTIMATE.outputTokens, estimateDeliveredTokens(seen)) : 0
      expect({ where, output: billed.usage.outputTokens >= floor }).toEqual({ where, output: true })
    }
  }
}

describe('random cuts of every recorded stream', () => {
  for (const upstream of ['anthropic-messages', 'openai-chat', 'openai-responses'] as const)
    for (const file of streams(upstream))
      test(`${upstream}/${file}: ${CUTS} cuts × 3 inbound protocols, never billed below the text delivered`, async () => {
        await cutEverywhere(upstream, new TextEncoder().encode(fixtureSse(upstream, file)))
      })
})

describe('random cuts of the cloud wires', () => {
  for (const file of streams('anthropic-messages')) {
    test(`bedrock-anthropic/${file} as event-stream chunks: ${CUTS} cuts × 3 inbound protocols`, async () => {
      await cutEverywhere('bedrock-anthropic', joined(bedrockChunks(anthropicEventsOf(fixtureSse('anthropic-messages', file)))))
    })
    test(`vertex-anthropic/${file}: ${CUTS} cuts × 3 inbound protocols`, async () => {
      await cutEverywhere('vertex-anthropic', new TextEncoder().encode(fixtureSse('anthropic-messages', file)))
    })
  }
  for (const [name, answer] of [
    ['text', CONVERSE_TEXT],
    ['tools', CONVERSE_TOOLS],
  ] as const)
    test(`bedrock-converse ${name}: ${CUTS} cuts × 3 inbound protocols`, async () => {
      await cutEverywhere('bedrock-converse', joined(converseFrames(answer.stream)))
    })
})
