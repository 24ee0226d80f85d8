// POST /v1/chat/completions body (docs/api.md "Chat completions"). Minimal and tolerant:
// only what the gateway reads or bounds is described; unknown fields pass through upstream.
import { Type as t, type Static } from '@sinclair/typebox'

const ContentPart = t.Object({ type: t.String() })

export const ChatMessage = t.Object({
  // `developer` is what current OpenAI SDKs send for o-series system prompts.
  role: t.Union([t.Literal('system'), t.Literal('developer'), t.Literal('user'), t.Literal('assistant'), t.Literal('tool')]),
  content: t.Optional(t.Union([t.String(), t.Array(ContentPart), t.Null()])),
  name: t.Optional(t.String()),
  tool_calls: t.Optional(
    t.Array(t.Object({ id: t.String(), type: t.String(), function: t.Object({ name: t.String(), arguments: t.String() }) })),
  ),
  tool_call_id: t.Optional(t.String()),
})

export const ChatRequest = t.Object({
  model: t.String({ minLength: 1 }),
  messages: t.Array(ChatMessage, { minItems: 1 }),
  temperature: t.Optional(t.Number({ minimum: 0, maximum: 2 })),
  top_p: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
  n: t.Optional(t.Integer({ minimum: 1, maximum: 8 })),
  stream: t.Optional(t.Boolean()),
  stream_options: t.Optional(t.Union([t.Object({ include_usage: t.Optional(t.Boolean()) }), t.Null()])),
  stop: t.Optional(t.Union([t.String(), t.Array(t.String(), { maxItems: 4 }), t.Null()])),
  max_tokens: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  max_completion_tokens: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  presence_penalty: t.Optional(t.Number({ minimum: -2, maximum: 2 })),
  frequency_penalty: t.Optional(t.Number({ minimum: -2, maximum: 2 })),
  user: t.Optional(t.String()),
  tools: t.Optional(t.Array(t.Object({ type: t.String() }))),
  tool_choice: t.Optional(t.Unknown()),
  response_format: t.Optional(t.Unknown()),
  seed: t.Optional(t.Integer()),
})
export type ChatRequest = Static<typeof ChatRequest>
export type ChatMessage = Static<typeof ChatMessage>

/** Characters of prompt text, the basis of the reservation estimate. */
export function promptChars(req: ChatRequest): number {
  let n = 0
  for (const m of req.messages) {
    if (typeof m.content === 'string') n += m.content.length
    else if (Array.isArray(m.content)) n += JSON.stringify(m.content).length
    if (m.tool_calls) n += JSON.stringify(m.tool_calls).length
    n += 4 // role and framing tokens
  }
  if (req.tools) n += JSON.stringify(req.tools).length
  return n
}

export const requestedMaxTokens = (req: ChatRequest): number | undefined => req.max_completion_tokens ?? req.max_tokens ?? undefined

// Wire shapes the decoder reads beyond the schema above (OpenAI's documented
// members). They are not validated, so every member is optional and read defensively.

export interface ChatPartWire {
  type?: string
  text?: string
  refusal?: string
  image_url?: { url?: string; detail?: string }
  file?: { file_data?: string; filename?: string }
  cache_control?: unknown
}

/** One message of a request's `messages` (the answer's message is providers/openai-chat/wire.ts). */
export interface ChatInputMessageWire {
  role: string
  content?: unknown
  refusal?: unknown
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[]
  tool_call_id?: string
}

export interface ChatToolWire {
  type?: string
  function?: { name?: string; description?: string; parameters?: Record<string, unknown>; strict?: unknown }
  cache_control?: unknown
}

/** Request members beyond the schema that the decoder maps (vendor extensions included). */
export interface ChatRequestExtras {
  tools?: ChatToolWire[]
  tool_choice?: unknown
  response_format?: { type?: string; json_schema?: { name?: string; schema?: Record<string, unknown>; strict?: boolean } }
  reasoning?: { enabled?: boolean; max_tokens?: unknown; effort?: unknown } | null
  reasoning_effort?: unknown
  parallel_tool_calls?: unknown
  top_k?: unknown
  safety_identifier?: unknown
}
