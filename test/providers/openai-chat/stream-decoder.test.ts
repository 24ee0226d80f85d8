// The chat-completions stream decoder on recorded chunks: the exact canonical events, the
// upstream's id, the finish given at the end (after the usage chunk), and a cut stream refused.
import { describe, expect, test } from 'bun:test'
import { chatStreamDecoder } from '../../../src/providers/openai-chat/stream-decoder.ts'
import { fixtureSse } from '../../helpers/fixtures.ts'
import { upstreamStreamView } from '../../translation/fixture-views.ts'
import { cut, decode } from '../decoded.ts'

const sse = (file: string) => fixtureSse('openai-chat', file)

describe('openai-chat stream decoder', () => {
  test('two parallel tool calls: a start and the joined arguments each, usage, then finish tool_use', () => {
    const d = decode(chatStreamDecoder(), sse('stream-tool-calls-two.sse'))
    expect(d.lines).toEqual([
      'tool_call_start 0 call_M26z19sncd7b4LBgzKRRbaUE secret_retrieval_tool',
      'tool_call_args 0 {"password": "mellon"}',
      'tool_call_start 1 call_KPXe5NX7IcKkaBUhc6dto2QV secret_retrieval_tool',
      'tool_call_args 1 {"password": "radiance"}',
      'usage in 75 out 53 cache 0/0 reasoning 0',
      'finish tool_use',
    ])
    expect(d.upstreamId).toBe('chatcmpl-CoDWpGC47t2wtJ7PYJq9LCn0IZunc')
  })

  test('text with usage: the text the chunks carry, usage from the last chunk', () => {
    const file = sse('stream-text-usage.sse')
    const d = decode(chatStreamDecoder(), file)
    expect(d.lines).toEqual(['text', expect.stringMatching(/^usage in \d+ out \d+ cache 0\/0 reasoning 0$/), 'finish end'])
    expect(d.text).toBe(upstreamStreamView('openai-chat', file).text)
  })

  test('a refusal is text flagged as such and finishes as refusal', () => {
    const d = decode(chatStreamDecoder(), sse('stream-refusal.sse'))
    expect(d.lines).toEqual(['refusal', 'usage in 64 out 13 cache 0/0 reasoning 0', 'finish refusal'])
    expect(d.text).toBe("I'm very sorry, but I can't assist with that request.")
  })

  test("OpenRouter's reasoning field is reasoning; its mid-stream error chunk is an error, with the usage it reports", () => {
    const d = decode(chatStreamDecoder(), sse('stream-midstream-error-openrouter.sse'))
    // The error ends the answer: no finish follows, though the stream still sends [DONE].
    expect(d.lines).toEqual(['reasoning', 'usage in 43 out 10 cache 0/0 reasoning 11', 'error Token limit reached'])
    expect(d.reasoning).toBe('We need to respond to a greeting. The user')
  })

  test('a stream cut before its finish_reason is refused at the end', () => {
    expect(() => decode(chatStreamDecoder(), cut(sse('stream-tool-call-single.sse'), 3))).toThrow(
      'stream ended before its answer was complete',
    )
  })
})
