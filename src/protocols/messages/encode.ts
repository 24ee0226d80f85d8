// Canonical response → Anthropic message JSON. Reasoning from another vendor keeps its proof
// in the thinking block's signature (reasoning-carrier).
import type { CPart, CResponse } from '../../core/canonical.ts'
import type { Usage } from '../../core/usage.ts'
import { safeJsonObject } from '../../lib/json.ts'
import { toSignature } from '../../core/reasoning-carrier.ts'
import { toAnthropicStop } from '../../core/stop-reasons.ts'

/** Cache writes are reported as 5-minute writes: other vendors do not distinguish TTLs. */
export function messagesUsage(u: Usage | undefined) {
  return {
    input_tokens: u?.inputTokens ?? 0,
    output_tokens: u?.outputTokens ?? 0,
    cache_creation_input_tokens: u?.cacheWriteTokens ?? 0,
    cache_read_input_tokens: u?.cacheReadTokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: u?.cacheWriteTokens ?? 0, ephemeral_1h_input_tokens: 0 },
  }
}

function block(p: CPart): Record<string, unknown> | undefined {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: p.text }
    case 'tool_call':
      return { type: 'tool_use', id: p.id, name: p.name, input: safeJsonObject(p.arguments) }
    case 'reasoning':
      if (p.redacted !== undefined) return p.origin === 'anthropic-messages' ? { type: 'redacted_thinking', data: p.redacted } : undefined
      return { type: 'thinking', thinking: p.text, signature: toSignature(p) }
    default:
      return undefined
  }
}

export function encodeMessage(r: CResponse, id: string, model: string): Record<string, unknown> {
  const content = r.content.map(block).filter((b): b is Record<string, unknown> => b !== undefined)
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: toAnthropicStop(r.stopReason),
    stop_sequence: r.stopSequence ?? null,
    usage: messagesUsage(r.usage),
  }
}
