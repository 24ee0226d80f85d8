// A fuzz of one vendor wire over its recorded streams: every event garbled, truncated, retyped
// or replaced. The wire's parse must answer each with a value or a typed failure, never an
// exception; and the stream stage built on it (teeTransform for the same protocol, the
// translation to another) must never throw out of the pipe, and never bill below what the
// client received (docs/api.md "What a call is billed").
import { expect } from 'bun:test'
import { type BilledEnd, billFor } from '../../src/billing/bill.ts'
import { estimateDeliveredTokens } from '../../src/billing/estimate.ts'
import type { Usage } from '../../src/core/usage.ts'
import { teeTransform, translateTransform } from '../../src/inference/stream-translate.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'
import type { CallContext } from '../../src/protocols/spoke.ts'
import { protocolSpokes } from '../../src/protocols/registry.ts'
import type { StreamDecoder } from '../../src/providers/types.ts'
import { fixtureJson, fixtureSse, type FixtureProtocol } from '../helpers/fixtures.ts'
import { pipeHarness } from '../helpers/pipe.ts'

const ESTIMATE: Usage = { inputTokens: 100, outputTokens: 100_000, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }
const ctx: CallContext = { requestId: 'req_fuzz', publicId: 'resp_fuzz', slug: 'acme/fuzz', created: 1, serviceMode: 'performance' }
const spokes = protocolSpokes({ creditsPerUsd: 1, creditSymbol: 'credits' })
const NATIVE = { 'openai-chat': 'chat', 'anthropic-messages': 'messages', 'openai-responses': 'responses' } as const

/** A deterministic generator (the same cases every run). */
export function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** Ways one event's data goes wrong: cut, garbled, not an object, members of the wrong type. */
export function mutations(data: string, next: () => number): string[] {
  const cut = Math.floor(next() * data.length)
  const at = Math.floor(next() * data.length)
  const out = [
    data.slice(0, cut),
    `${data.slice(0, at)}\u0000}{${data.slice(at)}`,
    '',
    'null',
    '42',
    '"text"',
    '[]',
    '[DONE',
    '{"type":7}',
    '{"choices":5}',
    '{"choices":[null]}',
    '{"choices":[{"delta":{"content":9}}]}',
    '{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":3}}]}}]}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":4}}',
    '{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}',
    '{"type":"message_start","message":"m"}',
    '{"type":"response.completed","response":{"usage":"u"}}',
    '{"type":"response.output_item.added","item":3}',
  ]
  try {
    const o = JSON.parse(data)
    if (o && typeof o === 'object')
      for (const k of Object.keys(o)) {
        out.push(JSON.stringify({ ...o, [k]: null }))
        out.push(JSON.stringify({ ...o, [k]: 'x' }))
        out.push(JSON.stringify({ ...o, [k]: [] }))
      }
  } catch {}
  return out
}

/** Every mutation of every event of `file` through `parse`: a result each time, never an exception. */
export function fuzzParse(p: FixtureProtocol, file: string, parse: (data: string) => { ok: boolean }, seed = 7): number {
  const next = random(seed)
  let failures = 0
  for (const ev of new SseParser().push(fixtureSse(p, file)))
    for (const m of mutations(ev.data, next)) {
      let r: { ok: boolean } | undefined
      expect(() => (r = parse(m))).not.toThrow()
      expect(typeof r!.ok).toBe('boolean')
      if (!r!.ok) failures++
    }
  return failures
}

/** What the client received of a body, in output characters (text, reasoning, tool input), whatever the protocol. */
function clientChars(inbound: 'chat' | 'messages' | 'responses', body: string): number {
  let chars = 0
  for (const ev of new SseParser().push(body)) {
    let e: any
    try {
      e = JSON.parse(ev.data)
    } catch {
      continue
    }
    if (inbound === 'chat')
      for (const c of Array.isArray(e?.choices) ? e.choices : []) {
        const d = c?.delta ?? {}
        for (const v of [d.content, d.reasoning_content ?? d.reasoning, d.refusal]) if (typeof v === 'string') chars += v.length
        for (const t of Array.isArray(d.tool_calls) ? d.tool_calls : [])
          if (typeof t?.function?.arguments === 'string') chars += t.function.arguments.length
      }
    else if (inbound === 'messages') {
      const d = e?.delta ?? {}
      for (const v of [d.text, d.thinking, d.partial_json]) if (typeof v === 'string') chars += v.length
      const b = e?.content_block ?? {}
      for (const v of [b.text, b.thinking]) if (typeof v === 'string') chars += v.length
    } else if (typeof e?.type === 'string' && e.type.endsWith('.delta') && typeof e.delta === 'string') chars += e.delta.length
  }
  return chars
}

function bodyOf(events: string[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(events.join(''))
  return new ReadableStream({
    pull(c) {
      c.enqueue(bytes)
      c.close()
    },
  })
}

/**
 * Streams of `file` with one event replaced by a mutation, or cut after it, through every
 * inbound protocol: the pipe ends once, never with an exception, and the bill covers what was delivered.
 */
export async function fuzzStreams(p: FixtureProtocol, decoder: () => StreamDecoder, seed = 11, cases = 60): Promise<void> {
  const files = (fixtureJson(p, 'index.json') as { file: string; streaming: boolean }[]).filter((e) => e.streaming).map((e) => e.file)
  const next = random(seed)
  for (let i = 0; i < cases; i++) {
    const file = files[Math.floor(next() * files.length)]!
    const events = new SseParser().push(fixtureSse(p, file))
    const at = Math.floor(next() * events.length)
    const bad = mutations(events[at]!.data, next)
    const mutation = bad[Math.floor(next() * bad.length)]!
    const truncate = next() < 0.5
    const frames = events.map((e, j) => `${e.event ? `event: ${e.event}\n` : ''}data: ${j === at ? mutation : e.data}\n\n`)
    const sent = truncate ? frames.slice(0, at + 1) : frames
    for (const inbound of ['chat', 'messages', 'responses'] as const) {
      const spoke = spokes[inbound]
      const t = NATIVE[p] === inbound ? teeTransform(decoder(), spoke.tee(ctx)) : translateTransform(decoder(), spoke.streamEncoder(ctx))
      const pipe = pipeHarness(bodyOf(sent).getReader(), t, { svc: '{}' })
      const body = await new Response(pipe.body).text()
      const o = pipe.outcome!
      const where = `${p}/${file} event ${at} → ${JSON.stringify(mutation).slice(0, 60)}${truncate ? ' (cut)' : ''} as ${inbound}`
      expect({ where, ended: o !== undefined }).toEqual({ where, ended: true })
      const billed = billFor(ESTIMATE, o.cause as BilledEnd, o)
      if (billed.source === 'upstream') continue
      const seen = clientChars(inbound, body)
      const floor = seen > 0 ? estimateDeliveredTokens(seen) : 0
      expect({ where, covered: billed.usage.outputTokens >= floor }).toEqual({ where, covered: true })
    }
  }
}
