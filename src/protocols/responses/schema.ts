// POST /v1/responses body. Tolerant: unknown fields pass on to a responses upstream.
import { Type as t, type Static } from '@sinclair/typebox'

export const ResponsesRequest = t.Object({
  model: t.String({ minLength: 1 }),
  input: t.Union([t.String(), t.Array(t.Object({}))]),
  instructions: t.Optional(t.Union([t.String(), t.Null()])),
  max_output_tokens: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])),
  temperature: t.Optional(t.Union([t.Number({ minimum: 0, maximum: 2 }), t.Null()])),
  top_p: t.Optional(t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()])),
  stream: t.Optional(t.Boolean()),
  store: t.Optional(t.Boolean()),
  tools: t.Optional(t.Array(t.Object({ type: t.String() }))),
  tool_choice: t.Optional(t.Unknown()),
  parallel_tool_calls: t.Optional(t.Boolean()),
  reasoning: t.Optional(t.Union([t.Object({ effort: t.Optional(t.Union([t.String(), t.Null()])) }), t.Null()])),
  text: t.Optional(t.Object({ format: t.Optional(t.Object({ type: t.String() })) })),
  previous_response_id: t.Optional(t.Union([t.String(), t.Null()])),
})
export type ResponsesRequest = Static<typeof ResponsesRequest>

// Wire shapes the decoder reads beyond the schema above (OpenAI's documented members). They are
// not validated, so every member is optional and read defensively.

export interface ResponsesPartWire {
  type?: string
  text?: string
  refusal?: string
  image_url?: unknown
  detail?: string
  file_data?: unknown
  file_url?: unknown
  filename?: string
}

/** One `input` item: a message, an earlier output item, or a function call's output. */
export interface ResponsesInputItemWire {
  type?: string
  role?: string
  content?: unknown
  id?: string
  call_id?: string
  name?: string
  arguments?: string
  output?: unknown
  summary?: unknown
  encrypted_content?: string | null
}

export interface ResponsesToolWire {
  type?: string
  name?: string
  description?: string | null
  parameters?: Record<string, unknown>
  strict?: unknown
}

/** Request members beyond the schema that the decoder maps. */
export interface ResponsesRequestExtras {
  tools?: ResponsesToolWire[]
  text?: { format?: { type?: string; name?: string; schema?: Record<string, unknown>; strict?: boolean } }
  user?: unknown
  safety_identifier?: unknown
}
