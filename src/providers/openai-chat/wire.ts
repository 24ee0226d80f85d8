/**
 * The OpenAI chat-completions wire: every shape Tollgate reads of an OpenAI-chat upstream (the
 * completion JSON, the stream chunks, an error chunk), declared once, and the checked read of
 * one stream event. This is the shape every vendor wire module follows
 * (src/providers/<u>/wire.ts):
 *
 * - Types: only the members Tollgate reads, all optional, of `unknown` type where a vendor may
 *   send anything; compatible servers add their own (DeepSeek's `reasoning_content`,
 *   OpenRouter's `reasoning` and mid-stream `error`). Each wire type is declared here and
 *   nowhere else: the provider's decoder and the inbound spoke's pass-through tee both import it.
 * - `parse<Format>Event(data)`: the event's JSON parsed ONCE per chunk and checked for the shape
 *   the readers rely on; it returns a `WireResult` (src/lib/wire.ts) and never throws. A
 *   malformed or truncated event is `{ ok: false, failure }`, which the stream stage counts and
 *   skips, and which fails the stream as a `malformed` upstream failure once too many pass
 *   (docs/failover.md "Failure → behaviour"). The parsed value is handed to the decoder and, on
 *   a pass-through, to the tee: nothing parses the event again.
 * - A wire module imports only src/core and src/lib (test/architecture.test.ts).
 */
import type { ChatUsageWire } from '../../core/usage.ts'
import { DONE, type Done, memberIs, readEventObject, type WireResult, wireFailure } from '../../lib/wire.ts'

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
  index?: number
  message?: ChatMessageWire
  delta?: ChatMessageWire
  finish_reason?: unknown
}

export interface ChatCompletionWire {
  id?: unknown
  model?: unknown
  choices?: ChatChoiceWire[]
  usage?: ChatUsageWire | null
}

export interface ChatChunkWire {
  id?: unknown
  created?: number
  model?: unknown
  choices?: ChatChoiceWire[]
  usage?: ChatUsageWire | null
  /** A failure after the stream started (OpenRouter). */
  error?: { message?: unknown; code?: unknown }
}

/** A message or delta whose read members have the types the readers assume. */
function messageOk(m: unknown): boolean {
  if (m === undefined || m === null) return true
  if (typeof m !== 'object' || Array.isArray(m)) return false
  const o = m as Record<string, unknown>
  if (!memberIs(o, 'content', 'string') || !memberIs(o, 'refusal', 'string') || !memberIs(o, 'tool_calls', 'array')) return false
  const calls = o.tool_calls as unknown[] | undefined | null
  if (calls)
    for (const tc of calls) {
      if (tc === null || typeof tc !== 'object') return false
      const f = (tc as Record<string, unknown>).function
      if (f !== undefined && f !== null && (typeof f !== 'object' || !memberIs(f as Record<string, unknown>, 'arguments', 'string')))
        return false
    }
  return true
}

/** One stream event of a chat upstream: a chunk, the [DONE] sentinel, or a typed failure. */
export function parseChatEvent(data: string): WireResult<ChatChunkWire | Done> {
  const read = readEventObject(data)
  if (!read.ok) return read
  const o = read.value
  // The read itself is the result when it passes: no second result object per chunk.
  if (o === DONE) return read as WireResult<Done>
  if (!memberIs(o, 'choices', 'array') || !memberIs(o, 'usage', 'object')) return wireFailure('bad_shape', 'choices or usage')
  for (const c of (o.choices as unknown[] | undefined) ?? []) {
    if (c === null || typeof c !== 'object') return wireFailure('bad_shape', 'a choice is not an object')
    if (!messageOk((c as ChatChoiceWire).delta)) return wireFailure('bad_shape', 'delta')
  }
  return read as WireResult<ChatChunkWire>
}
