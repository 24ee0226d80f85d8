// What Tollgate reads of Bedrock's Anthropic wire (docs/providers.md "Bedrock: Claude and Llama"): the JSON answer
// is an Anthropic message (anthropic-messages/wire.ts); a stream is AWS event-stream messages
// (transport/aws-event-stream.ts), each read as `{"chunk": {"bytes": "<base64 of one Anthropic
// event>"}}` or `{"exception": {type, message, status}}`. The read is checked and never throws:
// a chunk's Anthropic event goes through the Anthropic wire's own checked parse.
import { type Done, exceptionOf, readEventObject, type StreamException, type WireResult, wireFailure } from '../../lib/wire.ts'
import { type AnthropicEventWire, parseAnthropicEvent } from '../anthropic-messages/wire.ts'

/** An exception the stream sent, with its status class. */
export type BedrockExceptionWire = StreamException

export type BedrockStreamWire =
  | { kind: 'chunk'; event: AnthropicEventWire | Done }
  | { kind: 'exception'; exception: BedrockExceptionWire }
  | { kind: 'other' }

/** One stream event: the Anthropic event a chunk carries, an exception, or another member (skipped). */
export function parseBedrockEvent(data: string): WireResult<BedrockStreamWire> {
  const read = readEventObject(data)
  if (!read.ok) return read
  const o = read.value
  if (typeof o !== 'object') return wireFailure('not_object', 'sentinel')
  const exception = exceptionOf(o)
  if (exception) return { ok: true, value: { kind: 'exception', exception } }
  if (o.chunk === undefined || o.chunk === null) return { ok: true, value: { kind: 'other' } }
  const bytes = typeof o.chunk === 'object' ? (o.chunk as { bytes?: unknown }).bytes : undefined
  if (typeof bytes !== 'string') return wireFailure('bad_shape', 'chunk has no bytes')
  const event = parseAnthropicEvent(Buffer.from(bytes, 'base64').toString('utf8'))
  return event.ok ? { ok: true, value: { kind: 'chunk', event: event.value } } : event
}
