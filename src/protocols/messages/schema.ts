// POST /v1/messages body (Anthropic's protocol). Tolerant: blocks are checked for what the
// gateway reads; unknown fields pass through to an Anthropic upstream. A message's role is
// checked with the system message's placement rules (roles.ts), so that its error names it.
import { Type as t, type Static } from '@sinclair/typebox'

const Block = t.Object({ type: t.String() })
const Content = t.Union([t.String(), t.Array(Block)])

export const MessagesRequest = t.Object({
  model: t.String({ minLength: 1 }),
  max_tokens: t.Integer({ minimum: 1 }),
  messages: t.Array(t.Object({ role: t.String(), content: Content }), { minItems: 1 }),
  system: t.Optional(Content),
  stream: t.Optional(t.Boolean()),
  temperature: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
  top_p: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
  top_k: t.Optional(t.Integer({ minimum: 0 })),
  stop_sequences: t.Optional(t.Array(t.String())),
  tools: t.Optional(t.Array(t.Object({ name: t.String({ minLength: 1 }) }))),
  tool_choice: t.Optional(t.Object({ type: t.String() })),
  thinking: t.Optional(
    t.Object({ type: t.String(), budget_tokens: t.Optional(t.Integer({ minimum: 1 })), display: t.Optional(t.String()) }),
  ),
  output_config: t.Optional(t.Object({ effort: t.Optional(t.String()), format: t.Optional(t.Object({ type: t.String() })) })),
  metadata: t.Optional(t.Object({ user_id: t.Optional(t.Union([t.String(), t.Null()])) })),
})
export type MessagesRequest = Static<typeof MessagesRequest>

export const CountTokensRequest = t.Object({
  model: t.String({ minLength: 1 }),
  messages: t.Array(t.Object({ role: t.String(), content: Content }), { minItems: 1 }),
  system: t.Optional(Content),
  tools: t.Optional(t.Array(t.Object({ name: t.String() }))),
})

// Wire shapes the decoder reads beyond the schema above (Anthropic's documented members). They
// are not validated, so every member is optional and read defensively.

export interface MessagesBlockWire {
  type?: string
  text?: string
  source?: { type?: string; media_type?: string; data?: string; url?: string }
  title?: string
  id?: string
  name?: string
  input?: unknown
  tool_use_id?: string
  content?: unknown
  is_error?: unknown
  thinking?: string
  signature?: string
  data?: string
  cache_control?: unknown
}

export interface MessagesToolWire {
  type?: string
  name?: string
  description?: string
  input_schema?: Record<string, unknown>
  strict?: unknown
  cache_control?: unknown
}

/** Request members beyond the schema that the decoder maps (newer API members included). */
export interface MessagesRequestExtras {
  tools?: MessagesToolWire[]
  tool_choice?: { type?: string; name?: string; disable_parallel_tool_use?: boolean }
  thinking?: { type?: string; budget_tokens?: number }
  output_config?: { effort?: string; format?: { type?: string; schema?: Record<string, unknown> } }
  output_format?: { type?: string; schema?: Record<string, unknown> }
  metadata?: { user_id?: unknown }
}
