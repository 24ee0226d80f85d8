// What Tollgate reads of Bedrock's Anthropic wire (docs/providers.md "Bedrock: Claude and Llama"): the JSON answer
// is an Anthropic message (anthropic-messages/wire.ts); a stream is AWS event-stream messages
// (transport/aws-event-stream.ts), each read as `{"chunk": {"bytes": "<base64 of one Anthropic
// event>"}}` or `{"exception": {type, message, status}}`. The read is checked and never throws:
// a chunk's Anthropic event goes through the Anthropic wire's own checked parse.
import { type Done, readEventObject, type WireResult, wireFailure } from '../../lib/wire.ts'
import { type AnthropicEventWire, parseAnthropicEvent } from '../anthropic-messages/wire.ts'

/** An exception the stream sent, with its status class. */
export interface BedrockExceptionWire {
  type: string
  message: string
  status: number
}

export type BedrockStreamWire =
  | { kind: 'chunk'; event: AnthropicEventWire | Done }
  | { kind: 'exception'; exception: BedrockExceptionWire }
  | { kind: 'other' }

/** An `{"exception": …}` event's exception (aws-event-stream.ts gives every one a status class), or undefined. */
export function exceptionOf(o: Record<string, unknown>): BedrockExceptionWire | undefined {
  const e = o.exception
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return undefined
  const x = e as Record<string, unknown>
  return { type: String(x.type), message: String(x.message ?? ''), status: Number(x.status) || 502 }
}

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
