/**
 * The OpenAI responses wire: every shape Tollgate reads of a responses upstream (the response
 * object, its output items, the stream events), declared once, and the checked read of one
 * stream event. It follows the shape src/providers/openai-chat/wire.ts describes: minimal
 * tolerant types, one parse per event that never throws, imports of src/core and src/lib only.
 * Hosted-tool items and events of other types are read and skipped.
 */
import type { ResponsesUsageWire } from '../../core/usage.ts'
import { DONE, type Done, memberIs, readEventObject, type WireResult, wireFailure } from '../../lib/wire.ts'

/** A message's content part: output_text or refusal; a reasoning item's reasoning_text. */
export interface ResponsesContentWire {
  type?: string
  text?: string
  refusal?: string
}

/** An output item: reasoning, message or function_call. */
export interface ResponsesItemWire {
  type?: string
  id?: string
  /** reasoning */
  summary?: { text?: unknown }[]
  encrypted_content?: string | null
  /** message; reasoning (raw reasoning text of open-weight models) */
  content?: ResponsesContentWire[]
  /** function_call */
  call_id?: string
  name?: string
  arguments?: string
}

export interface ResponseWire {
  id?: unknown
  model?: unknown
  status?: unknown
  incomplete_details?: { reason?: unknown } | null
  output?: ResponsesItemWire[]
  usage?: ResponsesUsageWire | null
  /** response.failed */
  error?: { message?: unknown; code?: unknown } | null
}

/**
 * One stream event; `type` says which of the other fields it carries. The response object
 * comes with the lifecycle events (created … completed, incomplete, failed).
 */
export interface ResponsesEventWire {
  type: string
  response?: ResponseWire & Record<string, unknown>
  /** output_item.added / done */
  item?: ResponsesItemWire
  /** The output item a delta or done event belongs to. */
  item_id?: unknown
  /** output_text, refusal, reasoning and function-call argument deltas; read only where it is a string */
  delta?: unknown
  /** function_call_arguments.done */
  arguments?: string
  /** reasoning_summary_part.added */
  summary_index?: number
  sequence_number?: unknown
  /** error: OpenAI nests it as `error.message` (test/fixtures/openai-responses/stream-error-event-insufficient-quota.chunks.jsonl); a bare `message` is read too */
  error?: { message?: unknown; code?: unknown } | null
  message?: unknown
}

/** One stream event of a responses upstream: an event, [DONE] (a compatible server's chat sentinel), or a typed failure. */
export function parseResponsesEvent(data: string): WireResult<ResponsesEventWire | Done> {
  const read = readEventObject(data)
  if (!read.ok) return read
  const o = read.value
  // The read itself is the result when it passes: no second result object per event.
  if (o === DONE) return read as WireResult<Done>
  if (typeof o.type !== 'string') return wireFailure('bad_shape', 'no event type')
  if (!memberIs(o, 'response', 'object') || !memberIs(o, 'item', 'object')) return wireFailure('bad_shape', `${o.type}: response or item`)
  const r = o.response as Record<string, unknown> | undefined
  if (r && !memberIs(r, 'usage', 'object')) return wireFailure('bad_shape', `${o.type}: usage`)
  return read as unknown as WireResult<ResponsesEventWire>
}
