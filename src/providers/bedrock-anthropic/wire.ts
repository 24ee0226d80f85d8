// What Tollgate reads of Bedrock's Anthropic wire (docs/providers.md "Bedrock: Claude and Llama"): the JSON answer
// is an Anthropic message (anthropic-messages/wire.ts); a stream is AWS event-stream messages
// (transport/aws-event-stream.ts), each read as `{"chunk": {"bytes": "<base64 of one Anthropic
// event>"}}` or `{"exception": {type, message, status}}`. The read is checked and never throws.

/** An exception the stream sent, with its status class. */
export interface BedrockExceptionWire {
  type: string
  message: string
  status: number
}

export type BedrockStreamWire =
  | { kind: 'chunk'; event: string }
  | { kind: 'exception'; exception: BedrockExceptionWire }
  | { kind: 'other' }

export type WireRead<T> = { ok: true; value: T } | { ok: false; error: string }

/** One stream event: the Anthropic event JSON a chunk carries, an exception, or another member (skipped). */
export function parseBedrockEvent(data: string): WireRead<BedrockStreamWire> {
  let o: { chunk?: { bytes?: unknown }; exception?: { type?: unknown; message?: unknown; status?: unknown } }
  try {
    o = JSON.parse(data)
  } catch {
    return { ok: false, error: 'event is not JSON' }
  }
  if (o === null || typeof o !== 'object') return { ok: false, error: 'event is not an object' }
  if (o.exception) {
    const e = o.exception
    return {
      ok: true,
      value: { kind: 'exception', exception: { type: String(e.type), message: String(e.message ?? ''), status: Number(e.status) || 502 } },
    }
  }
  if (!o.chunk) return { ok: true, value: { kind: 'other' } }
  if (typeof o.chunk.bytes !== 'string') return { ok: false, error: 'chunk has no bytes' }
  return { ok: true, value: { kind: 'chunk', event: Buffer.from(o.chunk.bytes, 'base64').toString('utf8') } }
}
