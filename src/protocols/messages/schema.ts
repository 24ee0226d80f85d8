// POST /v1/messages body (Anthropic's protocol). Tolerant: blocks are checked for what the
// gateway reads; unknown fields pass through to an Anthropic upstream. A message's role is
// checked with the system message's placement rules (rolesIssue), so that its error names it.
import { Type as t, type Static } from '@sinclair/typebox'
import type { Issue } from '../../lib/validate.ts'

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
  output_config: t.Optional(
    t.Object({ effort: t.Optional(t.Union([t.String(), t.Null()])), format: t.Optional(t.Object({ type: t.String() })) }),
  ),
  metadata: t.Optional(t.Object({ user_id: t.Optional(t.Union([t.String(), t.Null()])) })),
})
export type MessagesRequest = Static<typeof MessagesRequest>

export const CountTokensRequest = t.Object({
  model: t.String({ minLength: 1 }),
  messages: t.Array(t.Object({ role: t.String(), content: Content }), { minItems: 1 }),
  system: t.Optional(Content),
  tools: t.Optional(t.Array(t.Object({ name: t.String() }))),
})

// The roles of a messages conversation and where a mid-conversation system message may stand,
// as Anthropic documents them (docs/translation.md "Mid-conversation system messages"): not the
// first message (the top-level `system` is for that); right after a user message, or after an
// assistant message that ends in a server tool use (so never between a tool_use and its
// tool_result); last, or followed by an assistant message; never next to another system
// message; text only. The first rule broken is the request's 400, naming its position.
const ROLES = new Set(['user', 'assistant', 'system'])
/** Blocks of a server tool call that the assistant turn may end in (the model resumes after the instruction). */
const SERVER_TOOL_USE = new Set(['server_tool_use', 'mcp_tool_use'])

interface RoleWire {
  role: string
  content: string | { type: string }[]
}

const endsInServerToolUse = (m: RoleWire): boolean => Array.isArray(m.content) && SERVER_TOOL_USE.has(m.content.at(-1)?.type ?? '')

function systemIssue(messages: RoleWire[], i: number): string | undefined {
  const before = messages[i - 1]
  const after = messages[i + 1]
  if (!before) return 'a system message cannot be the first message; put instructions for the whole conversation in `system`'
  if (before.role === 'system' || after?.role === 'system') return 'a system message cannot be next to another system message'
  if (before.role !== 'user' && !endsInServerToolUse(before))
    return 'a system message must follow a user message (after the tool results that answer a tool use)'
  if (after && after.role !== 'assistant') return 'a system message must be the last message or be followed by an assistant message'
  return undefined
}

/** The first problem with the conversation's roles, or undefined. */
export function rolesIssue(messages: RoleWire[]): Issue | undefined {
  for (const [i, m] of messages.entries()) {
    if (!ROLES.has(m.role))
      return { path: `messages[${i}].role`, message: `must be one of user, assistant, system (got ${JSON.stringify(m.role)})` }
    if (m.role !== 'system') continue
    const placement = systemIssue(messages, i)
    if (placement) return { path: `messages[${i}].role`, message: placement }
    const j = typeof m.content === 'string' ? -1 : m.content.findIndex((b) => b.type !== 'text')
    if (j !== -1) return { path: `messages[${i}].content[${j}].type`, message: 'a system message holds text blocks only' }
  }
  return undefined
}

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
  output_config?: { effort?: string | null; format?: { type?: string; schema?: Record<string, unknown> } }
  output_format?: { type?: string; schema?: Record<string, unknown> }
  metadata?: { user_id?: unknown }
}
