/**
 * The Anthropic messages wire: every shape Tollgate reads of an Anthropic upstream (the message
 * JSON, its content blocks, the stream events), declared once, and the checked read of one
 * stream event. It follows the shape src/providers/openai-chat/wire.ts describes: minimal
 * tolerant types, one parse per event that never throws, imports of src/core and src/lib only.
 * Blocks and events of other types (server tools, ping, content_block_stop) are read and skipped.
 */
import type { AnthropicUsageWire } from '../../core/usage.ts'
import { DONE, type Done, memberIs, readEventObject, type WireResult, wireFailure } from '../../lib/wire.ts'

/** A content block: the JSON answer's, or content_block_start's (then text and thinking are empty). */
export interface AnthropicBlockWire {
  type?: string
  text?: string
  thinking?: string
  signature?: string
  /** redacted_thinking's opaque data. */
  data?: string
  id?: string
  name?: string
  input?: unknown
}

export interface AnthropicMessageWire {
  id?: unknown
  model?: unknown
  content?: AnthropicBlockWire[]
  stop_reason?: unknown
  stop_sequence?: string | null
  usage?: AnthropicUsageWire | null
}

/** content_block_delta's `delta`: a fragment of the block at the event's index. */
export type AnthropicBlockDeltaWire =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string }

/**
 * The stream events, by `type` (ping and content_block_stop carry nothing used). Fields the
 * protocol always sends are required here; the decoder still tolerates their absence.
 */
export type AnthropicEventWire =
  | { type: 'message_start'; message?: AnthropicMessageWire }
  | { type: 'content_block_start'; index: number; content_block?: AnthropicBlockWire }
  | { type: 'content_block_delta'; index: number; delta?: AnthropicBlockDeltaWire }
  | { type: 'message_delta'; delta?: { stop_reason?: unknown; stop_sequence?: string | null }; usage?: AnthropicUsageWire }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'content_block_stop'; index: number }
  /** A failure after the stream started (e.g. overloaded_error). */
  | { type: 'error'; error?: { type?: unknown; message?: unknown } }

/** The text a content_block_delta carries, by its delta type. */
const DELTA_TEXT: Record<string, string> = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  signature_delta: 'signature',
  input_json_delta: 'partial_json',
}

/** One stream event of an Anthropic upstream: an event, [DONE] (a compatible server's chat sentinel), or a typed failure. */
export function parseAnthropicEvent(data: string): WireResult<AnthropicEventWire | Done> {
  const read = readEventObject(data)
  if (!read.ok) return read
  const o = read.value
  // The read itself is the result when it passes: no second result object per event.
  if (o === DONE) return read as WireResult<Done>
  if (typeof o.type !== 'string') return wireFailure('bad_shape', 'no event type')
  if (!memberIs(o, 'message', 'object') || !memberIs(o, 'usage', 'object') || !memberIs(o, 'delta', 'object'))
    return wireFailure('bad_shape', `${o.type}: message, usage or delta`)
  if (o.type === 'content_block_delta' || o.type === 'content_block_start') {
    if (typeof o.index !== 'number') return wireFailure('bad_shape', `${o.type}: index`)
    const d = o.delta as Record<string, unknown> | undefined
    const member = d && typeof d.type === 'string' ? DELTA_TEXT[d.type] : undefined
    if (d && member && typeof d[member] !== 'string') return wireFailure('bad_shape', `${d.type}: ${member}`)
    if (!memberIs(o, 'content_block', 'object')) return wireFailure('bad_shape', 'content_block')
  }
  return read as unknown as WireResult<AnthropicEventWire>
}
