// What Tollgate reads of an OpenAI responses upstream's answers: the response object, its
// output items and the stream events. Unchecked JSON read tolerantly: only the fields used are
// named, all optional; hosted-tool items and events of other types are skipped.
import type { ResponsesUsageWire } from '../../core/usage.ts'

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
  status?: unknown
  incomplete_details?: { reason?: unknown } | null
  output?: ResponsesItemWire[]
  usage?: ResponsesUsageWire | null
  /** response.failed */
  error?: { message?: unknown } | null
}

/**
 * One stream event; `type` says which of the other fields it carries. The response object
 * comes with the lifecycle events (created … completed, incomplete, failed).
 */
export interface ResponsesEventWire {
  type?: string
  response?: ResponseWire
  /** output_item.added / done */
  item?: ResponsesItemWire
  /** The output item a delta or done event belongs to. */
  item_id?: unknown
  /** output_text, refusal, reasoning and function-call argument deltas */
  delta?: string
  /** function_call_arguments.done */
  arguments?: string
  /** reasoning_summary_part.added */
  summary_index?: number
  /** error: OpenAI nests it as `error.message` (test/fixtures/openai-responses/stream-error-event-insufficient-quota.chunks.jsonl); a bare `message` is read too */
  error?: { message?: unknown } | null
  message?: unknown
}
