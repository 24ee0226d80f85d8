// Canonical response → Anthropic message JSON.
import type { CResponse } from '../../core/canonical.ts'
import type { Usage } from '../../core/usage.ts'
import { safeJsonObject } from '../../lib/json.ts'
import { toSignature } from '../../core/reasoning-carrier.ts'
import { toAnthropicStop } from '../../core/stop-reasons.ts'

export function messagesUsage(u: Usage | undefined) {
  return {
    input_tokens: u?.inputTokens ?? 0,
    output_tokens: u?.outputTokens ?? 0,
    cache_creation_input_tokens: u?.cacheWriteTokens ?? 0,
    cache_read_input_tokens: u?.cacheReadTokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: u?.cacheWriteTokens ?? 0, ephemeral_1h_input_tokens: 0 },
  }
}

export function encodeMessage(r: CResponse, id: string, model: string): Record<string, unknown> {
  const content: Record<string, unknown>[] = []
  for (const p of r.content) {
    if (p.type === 'text') content.push({ type: 'text', text: p.text })
    else if (p.type === 'tool_call') content.push({ type: 'tool_use', id: p.id, name: p.name, input: safeJsonObject(p.arguments) })
    else if (p.type === 'reasoning') {
      if (p.redacted !== undefined) content.push({ type: 'redacted_thinking', data: p.redacted })
      else content.push({ type: 'thinking', thinking: p.text, signature: toSignature(p) })
    }
  }
  return { id, type: 'message', role: 'assistant', model, content, stop_reason: toAnthropicStop(r.stopReason), stop_sequence: r.stopSequence ?? null, usage: messagesUsage(r.usage) }
}
