// What Tollgate reads of an Anthropic messages upstream's answers: the message JSON, its content
// blocks and the stream events. Unchecked JSON read tolerantly: only the fields used are named,
// all optional; blocks and events of other types (server tools, ping, content_block_stop) are
// skipped.
import type { AnthropicUsageWire } from '../../core/usage.ts'

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
  | { type: 'error'; error?: { message?: unknown } }
