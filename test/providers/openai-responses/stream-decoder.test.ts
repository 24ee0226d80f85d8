// The responses stream decoder on recorded events: output items map onto canonical events, the
// terminal response event gives usage and the stop reason, response.failed fails the stream.
import { describe, expect, test } from 'bun:test'
import { SseParser } from '../../../src/lib/sse/parse.ts'
import { responsesStreamDecoder } from '../../../src/providers/openai-responses/stream-decoder.ts'
import { fixtureSse } from '../../helpers/fixtures.ts'
import { upstreamStreamView } from '../../translation/fixture-views.ts'
import { cut, decode, push } from '../decoded.ts'

const sse = (file: string) => fixtureSse('openai-responses', file)

describe('openai-responses stream decoder', () => {
  test('a function call: start with call_id and name, joined arguments, usage, finish tool_use', () => {
    const d = decode(responsesStreamDecoder(), sse('stream-function-call-single.sse'))
    expect(d.lines).toEqual([
      'tool_call_start 0 call_kL0PCQV7M2WMoVX8V8OtYSAL get_capital',
      'tool_call_args 0 {"country":"France"}',
      'usage in 255 out 16 cache 0/0 reasoning 0',
      'finish tool_use',
    ])
    expect(d.upstreamId).toBe('resp_67e554a155508191900ee113293c4c830794405d35281ae2')
  })

  test('reasoning summary parts join with a newline, as in the JSON answer; reasoning tokens are reported', () => {
    const file = sse('stream-reasoning-summary.sse')
    const d = decode(responsesStreamDecoder(), file)
    expect(d.lines).toEqual(['reasoning_start', 'reasoning', 'text', 'usage in 32 out 839 cache 0/0 reasoning 832', 'finish end'])
    expect(d.reasoning).toBe(upstreamStreamView('openai-responses', file).reasoning)
    expect(d.text).toBe('3')
  })

  test('a refusal is text flagged as such; an incomplete answer finishes as max_tokens', () => {
    expect(decode(responsesStreamDecoder(), sse('stream-refusal.sse')).lines).toEqual([
      'refusal',
      'usage in 54 out 11 cache 0/0 reasoning 0',
      'finish refusal',
    ])
    expect(decode(responsesStreamDecoder(), sse('stream-incomplete-max-output-tokens.sse')).lines.at(-1)).toBe('finish max_tokens')
  })

  test('an error event and response.failed are errors with their messages; the stream is then not complete', () => {
    const decoder = responsesStreamDecoder()
    const events = new SseParser().push(sse('stream-error-event-insufficient-quota.chunks.jsonl')).flatMap((ev) => push(decoder, ev))
    expect(events.map((e) => e.type)).toEqual(['error', 'error'])
    // The `error` event nests its message (error.message), response.failed under response.error.
    for (const e of events) expect(e.type === 'error' && e.message).toStartWith('You exceeded your current quota')
    expect(decoder.complete()).toBe(false)
  })

  test('a stream cut before response.completed is refused at the end', () => {
    expect(() => decode(responsesStreamDecoder(), cut(sse('stream-function-call-single.sse'), 1))).toThrow(
      'stream ended before its answer was complete',
    )
  })
})
