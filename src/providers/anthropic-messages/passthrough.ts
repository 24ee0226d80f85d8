// The same-protocol body for an Anthropic upstream: the caller's own body with the upstream model
// name, minus thinking blocks that carry another vendor's reasoning (Anthropic would refuse them).
import { carriesOpenAi } from '../../core/reasoning-carrier.ts'

function withoutOpenAiThinking(message: unknown): unknown {
  const content = (message as { content?: unknown } | null)?.content
  if (!Array.isArray(content) || !content.some(carriesOpenAi)) return message
  return { ...(message as object), content: content.filter((b) => !carriesOpenAi(b)) }
}

export function anthropicPassthroughBody(raw: Record<string, unknown>, model: string): string {
  const messages = Array.isArray(raw.messages) ? raw.messages.map(withoutOpenAiThinking) : raw.messages
  return JSON.stringify({ ...raw, model, messages })
}
