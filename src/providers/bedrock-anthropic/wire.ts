// What Tollgate reads of Bedrock's Anthropic wire (docs/providers.md "Bedrock"): the JSON answer
// is an Anthropic message (anthropic-messages/wire.ts); a stream is AWS event-stream messages
// (transport/aws-event-stream.ts) whose `chunk` payload carries one Anthropic event, base64 in
// `bytes`, and whose `exception` events name a failure. Each read is checked and never throws.

/** `chunk`'s payload: `{"bytes": "<base64 of one Anthropic event's JSON>"}`. */
export interface BedrockChunkWire {
  bytes?: unknown
}

/** An exception event's data (transport/aws-event-stream.ts). */
export interface BedrockExceptionWire {
  type: string
  message: string
  status: number
}

export type WireRead<T> = { ok: true; value: T } | { ok: false; error: string }

/** The Anthropic event JSON a `chunk` carries. */
export function readChunk(data: string): WireRead<string> {
  let o: BedrockChunkWire
  try {
    o = JSON.parse(data)
  } catch {
    return { ok: false, error: 'chunk payload is not JSON' }
  }
  if (typeof o?.bytes !== 'string') return { ok: false, error: 'chunk payload has no bytes' }
  return { ok: true, value: Buffer.from(o.bytes, 'base64').toString('utf8') }
}

export function readException(data: string): BedrockExceptionWire {
  try {
    const o = JSON.parse(data)
    return { type: String(o.type), message: String(o.message ?? ''), status: Number(o.status) || 502 }
  } catch {
    return { type: 'unknownException', message: '', status: 502 }
  }
}
