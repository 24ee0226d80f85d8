// Bedrock's Anthropic stream → canonical events: each `chunk` is unwrapped (wire.ts) and read by
// the Anthropic decoder, so Bedrock's Claude streams translate exactly as Anthropic's do; an
// exception event fails the stream with its status class (a throttlingException is a 429).
import type { StreamDecoder } from '../types.ts'
import { anthropicStreamDecoder } from '../anthropic-messages/stream-decoder.ts'
import { readChunk, readException } from './wire.ts'

export function bedrockAnthropicStreamDecoder(): StreamDecoder {
  const inner = anthropicStreamDecoder()
  return {
    upstreamId: () => inner.upstreamId(),
    push(ev) {
      if (ev.event === 'exception') {
        const e = readException(ev.data)
        return [{ type: 'error', message: `${e.type}: ${e.message}`, status: e.status }]
      }
      if (ev.event !== 'chunk') return []
      const chunk = readChunk(ev.data)
      if (!chunk.ok) throw new Error(chunk.error)
      return inner.push({ event: undefined, data: chunk.value })
    },
    end: () => inner.end(),
  }
}
