// A fuzz of one wire over sample streams (a vendor's recordings, or a cloud wire's events built by
// the fakes): every event garbled, truncated, retyped or replaced. The wire's parse must answer
// each with a value or a typed failure, never an exception; and the stream stage built on it
// (teeTransform for the same protocol, the translation to another) must never throw out of the
// pipe, and never bill below what the client received (docs/api.md "What a call is billed").
// A stream travels in its wire's framing: SSE, or AWS event-stream messages whose payload is the
// unit mutated (transport/aws-event-stream.ts gives the parse `{"<event type>": payload}`).
import { expect } from 'bun:test'
import { type BilledEnd, billFor } from '../../src/billing/bill.ts'
import { estimateDeliveredTokens } from '../../src/billing/estimate.ts'
import type { Usage } from '../../src/core/usage.ts'
import { teeTransform, translateTransform } from '../../src/inference/stream-translate.ts'
import { type SseEvent, SseParser } from '../../src/lib/sse/parse.ts'
import type { CallContext } from '../../src/protocols/spoke.ts'
import { protocolSpokes } from '../../src/protocols/registry.ts'
import { awsEventStream } from '../../src/providers/transport/aws-event-stream.ts'
import type { EventSource, StreamDecoder } from '../../src/providers/types.ts'
import { eventFrameOf, exceptionFrameOf } from '../../src/testing/fake-upstream/aws-event-stream.ts'
import { fixtureJson, fixtureSse, type FixtureProtocol } from '../helpers/fixtures.ts'
import { pipeHarness } from '../helpers/pipe.ts'

const ESTIMATE: Usage = { inputTokens: 100, outputTokens: 100_000, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }
const ctx: CallContext = { requestId: 'req_fuzz', publicId: 'resp_fuzz', slug: 'acme/fuzz', created: 1, serviceMode: 'performance' }
const spokes = protocolSpokes({ creditsPerUsd: 1, creditSymbol: 'credits' })
const NATIVE = { 'openai-chat': 'chat', 'anthropic-messages': 'messages', 'openai-responses': 'responses' } as const

export type Inbound = 'chat' | 'messages' | 'responses'

/** One sample stream of a wire: its units as the upstream sends them (SSE: event name and data; AWS: event type and payload). */
export interface SampleStream {
  name: string
  events: SseEvent[]
}

/** How a wire's units travel: their bytes, and the adapter's event source reading them back. */
export interface Framing {
  encode(events: SseEvent[]): Uint8Array
  source(): EventSource
}

const utf8 = new TextEncoder()
const sseFrame = (e: SseEvent) => `${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`

export const SSE_FRAMING: Framing = {
  encode: (events) => utf8.encode(events.map(sseFrame).join('')),
  source: () => new SseParser(),
}

/** The exception messages' units: `exception:<type>` (the event type of others). */
export const EXCEPTION = 'exception:'

/**
 * AWS event-stream messages (Bedrock): a unit is one message, its event type and its payload as
 * sent (`exception:<type>` for an exception message); read back by the gateway's own decoder.
 */
export const AWS_FRAMING: Framing = {
  encode: (units) =>
    new Uint8Array(
      Buffer.concat(
        units.map((u) =>
          u.event?.startsWith(EXCEPTION)
            ? exceptionFrameOf(u.event.slice(EXCEPTION.length), u.data)
            : eventFrameOf(u.event ?? 'chunk', u.data),
        ),
      ),
    ),
  source: awsEventStream,
}

/** The recorded streams of a vendor protocol (test/fixtures), as SSE events. */
export function recordedStreams(p: FixtureProtocol): SampleStream[] {
  const files = (fixtureJson(p, 'index.json') as { file: string; streaming: boolean }[]).filter((e) => e.streaming).map((e) => e.file)
  return files.map((file) => ({ name: `${p}/${file}`, events: new SseParser().push(fixtureSse(p, file)) }))
}

/** The events a parse reads of units sent in `framing`: each unit's data itself when there is none. */
export function readAs(framing: Framing | undefined, units: SseEvent[]): string[] {
  if (!framing) return units.map((u) => u.data)
  const source = framing.source()
  return [...source.push(framing.encode(units)), ...source.end()].map((e) => e.data)
}

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
    for (const m of mutations(ev.data, next)) failures += parsedFailures(parse, [m])
  return failures
}

/** Typed failures of `parse` over `events`, each a result, never an exception (checked once for all: the fuzz's hot loop). */
function parsedFailures(parse: (data: string) => { ok: boolean }, events: string[]): number {
  let failures = 0
  const wrong: string[] = []
  for (const data of events)
    try {
      const r = parse(data)
      if (typeof r?.ok !== 'boolean') wrong.push(`no result: ${data.slice(0, 80)}`)
      else if (!r.ok) failures++
    } catch (e) {
      wrong.push(`${String(e)}: ${data.slice(0, 80)}`)
    }
  expect(wrong).toEqual([])
  return failures
}

/** `data` cut at every length, and with each character flipped in turn (its low bit). */
export function everyCutAndFlip(data: string): string[] {
  const out: string[] = []
  for (let i = 0; i < data.length; i++) {
    out.push(data.slice(0, i))
    out.push(`${data.slice(0, i)}${String.fromCharCode(data.charCodeAt(i) ^ 1)}${data.slice(i + 1)}`)
  }
  return out
}

/** How a wire's fuzz mutates one unit: `mutations` of its data unless the wire says more. */
export type Mutate = (unit: SseEvent, next: () => number) => string[]
const byData: Mutate = (unit, next) => mutations(unit.data, next)

/**
 * Every mutation of every unit of `streams` (the shared ones, every cut and every flip), sent in
 * `framing`, through `parse`: a result each time, never an exception. Returns the typed failures.
 */
export function fuzzParseStreams(
  streams: SampleStream[],
  parse: (data: string) => { ok: boolean },
  o: { framing?: Framing; mutate?: Mutate; seed?: number } = {},
): number {
  const next = random(o.seed ?? 7)
  const mutate = o.mutate ?? byData
  let failures = 0
  for (const s of streams)
    for (const unit of s.events)
      for (const m of [...mutate(unit, next), ...everyCutAndFlip(unit.data)])
        failures += parsedFailures(parse, readAs(o.framing, [{ event: unit.event, data: m }]))
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
      // Only the events a client reads text from: one of another type (a mutation's, passed through by the tee) is skipped by it.
      const d = (e?.type === 'content_block_delta' && e.delta) || {}
      for (const v of [d.text, d.thinking, d.partial_json]) if (typeof v === 'string') chars += v.length
      const b = (e?.type === 'content_block_start' && e.content_block) || {}
      for (const v of [b.text, b.thinking]) if (typeof v === 'string') chars += v.length
    } else if (typeof e?.type === 'string' && e.type.endsWith('.delta') && typeof e.delta === 'string') chars += e.delta.length
  }
  return chars
}

function bodyOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
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
  await fuzzSampleStreams(recordedStreams(p), decoder, { native: NATIVE[p], seed, cases })
}

/**
 * Sample streams with one unit replaced by a mutation, or cut after it (in an event-stream framing,
 * half the time inside its message), through every inbound protocol (`native` through its tee):
 * the pipe ends once, never with an exception, and the bill covers what was delivered.
 */
export async function fuzzSampleStreams(
  streams: SampleStream[],
  decoder: () => StreamDecoder,
  o: { native?: Inbound; framing?: Framing; mutate?: Mutate; seed?: number; cases?: number },
): Promise<void> {
  const next = random(o.seed ?? 11)
  const mutate = o.mutate ?? byData
  const framing = o.framing ?? SSE_FRAMING
  for (let i = 0; i < (o.cases ?? 60); i++) {
    const stream = streams[Math.floor(next() * streams.length)]!
    const events = stream.events
    const at = Math.floor(next() * events.length)
    const bad = mutate(events[at]!, next)
    const mutation = bad[Math.floor(next() * bad.length)]!
    const truncate = next() < 0.5
    const units = events.map((e, j) => (j === at ? { event: e.event, data: mutation } : e))
    let sent = framing.encode(truncate ? units.slice(0, at + 1) : units)
    // A cut inside the last message: only where messages are framed by length (not SSE, where a cut line is an event unfinished).
    if (truncate && o.framing && next() < 0.5)
      sent = sent.slice(0, sent.length - 1 - Math.floor(next() * framing.encode([units[at]!]).length))
    for (const inbound of ['chat', 'messages', 'responses'] as const) {
      const spoke = spokes[inbound]
      const t = o.native === inbound ? teeTransform(decoder(), spoke.tee(ctx)) : translateTransform(decoder(), spoke.streamEncoder(ctx))
      const pipe = pipeHarness(bodyOf(sent).getReader(), t, { svc: '{}', events: o.framing?.source() })
      const body = await new Response(pipe.body).text()
      const out = pipe.outcome!
      const where = `${stream.name} event ${at} → ${JSON.stringify(mutation).slice(0, 60)}${truncate ? ' (cut)' : ''} as ${inbound}`
      expect({ where, ended: out !== undefined }).toEqual({ where, ended: true })
      const billed = billFor(ESTIMATE, out.cause as BilledEnd, out)
      if (billed.source === 'upstream') continue
      const seen = clientChars(inbound, body)
      const floor = seen > 0 ? estimateDeliveredTokens(seen) : 0
      expect({ where, covered: billed.usage.outputTokens >= floor }).toEqual({ where, covered: true })
    }
  }
}
