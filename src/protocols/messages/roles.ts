// The roles of a messages conversation and where a mid-conversation system message may stand,
// as Anthropic documents them (docs/translation.md "Mid-conversation system messages"): not the
// first message (the top-level `system` is for that); right after a user message, or after an
// assistant message that ends in a server tool use (so never between a tool_use and its
// tool_result); last, or followed by an assistant message; never next to another system
// message; text only. The first rule broken is the request's 400, naming its position.
import type { Issue } from '../../lib/validate.ts'

const ROLES = new Set(['user', 'assistant', 'system'])
/** Blocks of a server tool call that the assistant turn may end in (the model resumes after the instruction). */
const SERVER_TOOL_USE = new Set(['server_tool_use', 'mcp_tool_use'])

interface MessageWire {
  role: string
  content: string | { type: string }[]
}

const endsInServerToolUse = (m: MessageWire): boolean => Array.isArray(m.content) && SERVER_TOOL_USE.has(m.content.at(-1)?.type ?? '')

function systemIssue(messages: MessageWire[], i: number): string | undefined {
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
export function rolesIssue(messages: MessageWire[]): Issue | undefined {
  for (const [i, m] of messages.entries()) {
    if (!ROLES.has(m.role))
      return { path: `messages[${i}].role`, message: `unknown role ${JSON.stringify(m.role)}; expected user, assistant or system` }
    if (m.role !== 'system') continue
    const placement = systemIssue(messages, i)
    if (placement) return { path: `messages[${i}].role`, message: placement }
    const j = typeof m.content === 'string' ? -1 : m.content.findIndex((b) => b.type !== 'text')
    if (j !== -1) return { path: `messages[${i}].content[${j}].type`, message: 'a system message holds text blocks only' }
  }
  return undefined
}
