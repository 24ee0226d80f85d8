// Bedrock's Anthropic stream → canonical events: each `chunk` is unwrapped (wire.ts) and read by
// the Anthropic decoder, so Bedrock's Claude streams translate exactly as Anthropic's do; an
// exception event fails the stream with its status class (a throttlingException is a 429).
import type { StreamDecoder } from '../types.ts'
import { anthropicStreamDecoder } from '../anthropic-messages/stream-decoder.ts'
import { parseBedrockEvent } from './wire.ts'

export function bedrockAnthropicStreamDecoder(): StreamDecoder {
  const inner = anthropicStreamDecoder()
  return {
    upstreamId: () => inner.upstreamId(),
    push(ev) {
      const read = parseBedrockEvent(ev.data)
      if (!read.ok) throw new Error(read.error)
      const e = read.value
      if (e.kind === 'exception')
        return [{ type: 'error', message: `${e.exception.type}: ${e.exception.message}`, status: e.exception.status }]
      return e.kind === 'chunk' ? inner.push({ event: undefined, data: e.event }) : []
    },
    end: () => inner.end(),
  }
}
