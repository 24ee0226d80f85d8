// Bedrock's Anthropic stream → canonical events: each `chunk` is unwrapped and parsed (wire.ts)
// and read by the Anthropic decoder, so Bedrock's Claude streams translate and bill exactly as
// Anthropic's do; an exception event fails the stream with its status class (a
// throttlingException is a 429).
import { DONE, type Done } from '../../lib/wire.ts'
import { anthropicStreamDecoder } from '../anthropic-messages/stream-decoder.ts'
import type { StreamDecoder } from '../types.ts'
import { type BedrockStreamWire, parseBedrockEvent } from './wire.ts'

export function bedrockAnthropicStreamDecoder(): StreamDecoder<BedrockStreamWire> {
  const inner = anthropicStreamDecoder()
  let failed = false
  return {
    parse: parseBedrockEvent,
    read(e: BedrockStreamWire | Done) {
      if (e === DONE) return []
      if (e.kind === 'exception') {
        failed = true
        return [{ type: 'error', message: `${e.exception.type}: ${e.exception.message}`, status: e.exception.status }]
      }
      return e.kind === 'chunk' ? inner.read(e.event) : []
    },
    complete: () => !failed && inner.complete(),
    end: () => inner.end(),
    usage: () => inner.usage(),
    deliveredChars: () => inner.deliveredChars(),
    upstreamId: () => inner.upstreamId(),
  }
}
