// POST /v1/messages body (Anthropic's protocol). Tolerant: blocks are checked for what the
// gateway reads; unknown fields pass through to an Anthropic upstream.
import { Type as t, type Static } from '@sinclair/typebox'

const Block = t.Object({ type: t.String() })
const Content = t.Union([t.String(), t.Array(Block)])

export const MessagesRequest = t.Object({
  model: t.String({ minLength: 1 }),
  max_tokens: t.Integer({ minimum: 1 }),
  messages: t.Array(t.Object({ role: t.Union([t.Literal('user'), t.Literal('assistant')]), content: Content }), { minItems: 1 }),
  system: t.Optional(Content),
  stream: t.Optional(t.Boolean()),
  temperature: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
  top_p: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
  top_k: t.Optional(t.Integer({ minimum: 0 })),
  stop_sequences: t.Optional(t.Array(t.String())),
  tools: t.Optional(t.Array(t.Object({ name: t.String({ minLength: 1 }) }))),
  tool_choice: t.Optional(t.Object({ type: t.String() })),
  thinking: t.Optional(t.Object({ type: t.String(), budget_tokens: t.Optional(t.Integer({ minimum: 1 })) })),
  metadata: t.Optional(t.Object({})),
})
export type MessagesRequest = Static<typeof MessagesRequest>

export const CountTokensRequest = t.Object({
  model: t.String({ minLength: 1 }),
  messages: t.Array(t.Object({ role: t.String(), content: Content }), { minItems: 1 }),
  system: t.Optional(Content),
  tools: t.Optional(t.Array(t.Object({ name: t.String() }))),
})
