// The anthropic-messages wire module: one checked parse per stream event. Every recorded event reads as a
// value; [DONE] is the sentinel; a malformed or truncated event is a typed failure, never an
// exception; and streams with a bad event, whole or cut there, end once and are never billed
// below what the client received, through the tee and both translations.
import { describe, expect, test } from 'bun:test'
import { DONE } from '../../../src/lib/wire.ts'
import { SseParser } from '../../../src/lib/sse/parse.ts'
import { anthropicStreamDecoder } from '../../../src/providers/anthropic-messages/stream-decoder.ts'
import { parseAnthropicEvent } from '../../../src/providers/anthropic-messages/wire.ts'
import { fixtureJson, fixtureSse } from '../../helpers/fixtures.ts'
import { fuzzParse, fuzzStreams } from '../wire-fuzz.ts'

const P = 'anthropic-messages' as const
const recorded = (fixtureJson(P, 'index.json') as { file: string; streaming: boolean }[]).filter((e) => e.streaming).map((e) => e.file)

describe('anthropic-messages wire', () => {
  test('every event of every recorded stream reads as a value', () => {
    let n = 0
    for (const file of recorded)
      for (const ev of new SseParser().push(fixtureSse(P, file))) {
        const r = parseAnthropicEvent(ev.data)
        expect({ file, data: ev.data.slice(0, 80), ok: r.ok }).toEqual({ file, data: ev.data.slice(0, 80), ok: true })
        n++
      }
    expect(n).toBeGreaterThan(20)
  })

  test('[DONE] is the sentinel; not JSON, not an object and a wrong shape are typed failures', () => {
    expect(parseAnthropicEvent('[DONE]')).toEqual({ ok: true, value: DONE })
    const reason = (data: string) => {
      const r = parseAnthropicEvent(data)
      return r.ok ? 'ok' : r.failure.reason
    }
    expect(reason('{"cut')).toBe('not_json')
    expect(reason('')).toBe('not_json')
    expect(reason('[1]')).toBe('not_object')
    expect(reason('null')).toBe('not_object')
    expect(reason('7')).toBe('not_object')
  })

  test('a member the readers rely on, of the wrong type, is a bad_shape failure; an unknown member passes', () => {
    for (const data of [
      '{"type":7}',
      '{}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":4}}',
      '{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}',
      '{"type":"message_start","message":"m"}',
    ])
      expect({ data, r: parseAnthropicEvent(data) }).toMatchObject({ data, r: { ok: false, failure: { reason: 'bad_shape' } } })
    expect(parseAnthropicEvent('{"type":"ping"}').ok).toBe(true)
    expect(parseAnthropicEvent('{"type":"ping"' + ',"vendor_extra":{"x":1}}').ok).toBe(true)
  })

  test('fuzz: every mutation of every recorded event is a value or a typed failure, never an exception', () => {
    let failures = 0
    for (const file of recorded) failures += fuzzParse(P, file, parseAnthropicEvent)
    expect(failures).toBeGreaterThan(0)
  })

  test('fuzz: a bad event, the stream whole or cut there, ends once and is never billed below what was delivered', async () => {
    await fuzzStreams(P, anthropicStreamDecoder)
  })
})
