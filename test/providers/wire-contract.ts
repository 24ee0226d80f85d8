// The contract every wire module holds (the parse of src/providers/<format>/wire.ts): one
// checked parse per stream event. Every recorded event (a vendor's recordings; a cloud wire's
// events built by the fakes, read back through its framing) reads as a value; [DONE] is the
// sentinel (on the cloud wires that never send it, a typed failure);
// a malformed or truncated event is a typed failure, never an exception; a member the readers rely
// on, of the wrong type, is bad_shape while an unknown member passes; and streams with a bad event,
// whole or cut there, end once and are never billed below what the client received, through the
// tee and both translations (wire-fuzz.ts).
import { describe, expect, test } from 'bun:test'
import { DONE, type WireResult } from '../../src/lib/wire.ts'
import { SseParser } from '../../src/lib/sse/parse.ts'
import type { StreamDecoder } from '../../src/providers/types.ts'
import { fixtureJson, fixtureSse, type FixtureProtocol } from '../helpers/fixtures.ts'
import {
  type Framing,
  fuzzParse,
  fuzzParseStreams,
  fuzzSampleStreams,
  fuzzStreams,
  type Inbound,
  type Mutate,
  readAs,
  type SampleStream,
} from './wire-fuzz.ts'

export interface WireUnderTest {
  parse: (data: string) => WireResult<unknown>
  decoder: () => StreamDecoder
  /** Events whose relied-on member has the wrong type. */
  badShapes: string[]
  /** A valid event of the wire (a JSON object); it must pass as is and with an unknown member added. */
  passes: string
}

export function wireContract(P: FixtureProtocol, { parse, decoder, badShapes, passes }: WireUnderTest): void {
  const recorded = (fixtureJson(P, 'index.json') as { file: string; streaming: boolean }[]).filter((e) => e.streaming).map((e) => e.file)
  describe(`${P} wire`, () => {
    test('every event of every recorded stream reads as a value', () => {
      let n = 0
      for (const file of recorded)
        for (const ev of new SseParser().push(fixtureSse(P, file))) {
          const r = parse(ev.data)
          expect({ file, data: ev.data.slice(0, 80), ok: r.ok }).toEqual({ file, data: ev.data.slice(0, 80), ok: true })
          n++
        }
      expect(n).toBeGreaterThan(20)
    })

    test('[DONE] is the sentinel; not JSON, not an object and a wrong shape are typed failures', () => {
      expect(parse('[DONE]')).toEqual({ ok: true, value: DONE })
      const reason = (data: string) => {
        const r = parse(data)
        return r.ok ? 'ok' : r.failure.reason
      }
      expect(reason('{"cut')).toBe('not_json')
      expect(reason('')).toBe('not_json')
      expect(reason('[1]')).toBe('not_object')
      expect(reason('null')).toBe('not_object')
      expect(reason('7')).toBe('not_object')
    })

    test('a member the readers rely on, of the wrong type, is a bad_shape failure; an unknown member passes', () => {
      for (const data of badShapes)
        expect({ data, r: parse(data) }).toMatchObject({ data, r: { ok: false, failure: { reason: 'bad_shape' } } })
      expect(parse(passes).ok).toBe(true)
      expect(parse(`${passes.slice(0, -1)},"vendor_extra":{"x":1}}`).ok).toBe(true)
    })

    test('fuzz: every mutation of every recorded event is a value or a typed failure, never an exception', () => {
      let failures = 0
      for (const file of recorded) failures += fuzzParse(P, file, parse)
      expect(failures).toBeGreaterThan(0)
    })

    test('fuzz: a bad event, the stream whole or cut there, ends once and is never billed below what was delivered', async () => {
      await fuzzStreams(P, decoder)
    })
  })
}

/** A wire read over sample streams: a cloud wire, whose events the fakes build. */
export interface SampledWire extends WireUnderTest {
  /** The sample streams, as units of the wire's framing. */
  streams: SampleStream[]
  /** How the units travel (AWS event stream); absent: each unit's data is the event. */
  framing?: Framing
  /** The inbound protocol served through its tee (a pass-through), if any. */
  native?: Inbound
  mutate?: Mutate
  /** Whether `[DONE]` is the sentinel (an Anthropic-compatible SSE) or, on a wire that never sends it, a not_object failure. */
  done: 'sentinel' | 'not_object'
  /** At least this many events in all the streams. */
  atLeast: number
}

export function sampledWireContract(name: string, w: SampledWire): void {
  const reason = (data: string) => {
    const r = w.parse(data)
    return r.ok ? 'ok' : r.failure.reason
  }
  describe(`${name} wire`, () => {
    test('every event of every sample stream, read back through its framing, reads as a value', () => {
      let n = 0
      for (const s of w.streams)
        for (const data of readAs(w.framing, s.events)) {
          const r = w.parse(data)
          expect({ stream: s.name, data: data.slice(0, 80), ok: r.ok }).toEqual({ stream: s.name, data: data.slice(0, 80), ok: true })
          n++
        }
      expect(n).toBeGreaterThanOrEqual(w.atLeast)
    })

    test('[DONE], not JSON, not an object and a wrong shape are typed failures (or the sentinel)', () => {
      if (w.done === 'sentinel') expect(w.parse('[DONE]')).toEqual({ ok: true, value: DONE })
      else expect(reason('[DONE]')).toBe('not_object')
      expect(reason('{"cut')).toBe('not_json')
      expect(reason('')).toBe('not_json')
      expect(reason('[1]')).toBe('not_object')
      expect(reason('null')).toBe('not_object')
      expect(reason('7')).toBe('not_object')
    })

    test('a member the readers rely on, of the wrong type, is a bad_shape failure; an unknown member passes', () => {
      for (const data of w.badShapes)
        expect({ data, r: w.parse(data) }).toMatchObject({ data, r: { ok: false, failure: { reason: 'bad_shape' } } })
      expect(w.parse(w.passes).ok).toBe(true)
      expect(w.parse(`${w.passes.slice(0, -1)},"vendor_extra":{"x":1}}`).ok).toBe(true)
    })

    test('fuzz: every mutation, every cut and every flipped character of every event is a value or a typed failure, never an exception', () => {
      expect(fuzzParseStreams(w.streams, w.parse, { framing: w.framing, mutate: w.mutate })).toBeGreaterThan(0)
    })

    test('fuzz: a bad event, the stream whole or cut there, ends once and is never billed below what was delivered', async () => {
      await fuzzSampleStreams(w.streams, w.decoder, { native: w.native, framing: w.framing, mutate: w.mutate })
    })
  })
}
