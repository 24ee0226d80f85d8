// What Tollgate reads of an OpenAI chat-completions upstream's answers: the completion JSON, the
// stream chunks and an error chunk. Unchecked JSON read tolerantly: only the fields used are
// named, all optional; compatible servers add their own (DeepSeek's `reasoning_content`,
// OpenRouter's `reasoning` and mid-stream `error`).
import type { ChatUsageWire } from '../../core/usage.ts'

export interface ChatToolCallWire {
  /** Stream deltas: which call a fragment belongs to. */
  index?: number
  id?: string
  function?: { name?: string; arguments?: string }
}

/** A JSON answer's `message`, or a stream chunk's `delta`. */
export interface ChatMessageWire {
  content?: string | null
  refusal?: string | null
  reasoning_content?: unknown
  reasoning?: unknown
  tool_calls?: ChatToolCallWire[]
}

export interface ChatChoiceWire {
  message?: ChatMessageWire
  finish_reason?: unknown
}

export interface ChatCompletionWire {
  id?: unknown
  choices?: ChatChoiceWire[]
  usage?: ChatUsageWire | null
}

export interface ChatChunkWire {
  id?: unknown
  choices?: { index?: number; delta?: ChatMessageWire; finish_reason?: unknown }[]
  usage?: ChatUsageWire | null
  /** A failure after the stream started (OpenRouter). */
  error?: { message?: unknown }
}
