// The Anthropic stream decoder on recorded events: blocks map one to one onto canonical events,
// usage is message_start's placeholder (its prompt count), then message_delta's over it as the final count; and the answer is complete only at message_stop.
import { describe, expect, test } from 'bun:test'
import { anthropicStreamDecoder } from '../../../src/providers/anthropic-messages/stream-decoder.ts'
import { fixtureSse } from '../../helpers/fixtures.ts'
import { upstreamStreamView } from '../../translation/fixture-views.ts'
import { cut, decode } from '../decoded.ts'

const sse = (file: string) => fixtureSse('anthropic-messages', file)

describe('anthropic-messages stream decoder', () => {
  test('thinking with its signature, then text, usage and finish', () => {
    const file = sse('stream-thinking-signature.sse')
    const d = decode(anthropicStreamDecoder(), file)
    expect(d.lines).toEqual([
      'placeholder usage in 43 out 1 cache 0/0 reasoning 0',
      'reasoning_start',
      'reasoning',
      'reasoning_signature',
      'text',
      'usage in 43 out 282 cache 0/0 reasoning 0',
      'finish end',
    ])
    const view = upstreamStreamView('anthropic-messages', file)
    expect(d.reasoning).toBe(view.reasoning)
    expect(d.text).toBe(view.text)
    expect(d.upstreamId).toBe('msg_01ALwQ87pTS7hH1PjSdC9wJD')
  })

  test('text then two tool uses: tool indexes count tool calls, not content blocks', () => {
    const d = decode(anthropicStreamDecoder(), sse('stream-tool-use-two.sse'))
    expect(d.lines).toEqual([
      'placeholder usage in 416 out 1 cache 0/0 reasoning 0',
      'text',
      'tool_call_start 0 toolu_015cUijgET79LXjgeYQerN2h secret_retrieval_tool',
      'tool_call_args 0 {"password": "mellon"}',
      'tool_call_start 1 toolu_01XZTimPexA7h3EVKesnKt5T secret_retrieval_tool',
      'tool_call_args 1 {"password": "radiance"}',
      'usage in 416 out 109 cache 0/0 reasoning 0',
      'finish tool_use',
    ])
  })

  test('redacted thinking blocks each become one reasoning_redacted event', () => {
    const d = decode(anthropicStreamDecoder(), sse('stream-redacted-thinking.sse'))
    expect(d.lines).toEqual([
      'placeholder usage in 92 out 88 cache 0/0 reasoning 0',
      'reasoning_redacted',
      'reasoning_redacted',
      'text',
      'usage in 92 out 189 cache 0/0 reasoning 0',
      'finish end',
    ])
  })

  test('a stream cut before message_stop is refused at the end', () => {
    expect(() => decode(anthropicStreamDecoder(), cut(sse('stream-tool-use-two.sse'), 1))).toThrow(
      'stream ended before its answer was complete',
    )
  })
})
