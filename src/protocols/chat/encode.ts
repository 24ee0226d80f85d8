// Canonical response → chat completion JSON (reasoning as `reasoning_content`, the field
// DeepSeek-style clients read).
import type { CResponse } from '../../core/canonical.ts'
import { toChatFinish } from '../../core/stop-reasons.ts'
import type { Usage } from '../../core/usage.ts'

export function chatUsage(u: Usage | undefined) {
  const prompt = (u?.inputTokens ?? 0) + (u?.cacheReadTokens ?? 0) + (u?.cacheWriteTokens ?? 0)
  return {
    prompt_tokens: prompt,
    completion_tokens: u?.outputTokens ?? 0,
    total_tokens: prompt + (u?.outputTokens ?? 0),
    prompt_tokens_details: { cached_tokens: u?.cacheReadTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: u?.reasoningTokens ?? 0 },
  }
}

export function encodeChat(r: CResponse, id: string, model: string, created: number) {
  const text = r.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('')
  const reasoning = r.content.filter((p) => p.type === 'reasoning').map((p) => (p as { text: string }).text).join('')
  const calls = r.content.flatMap((p) => (p.type === 'tool_call' ? [{ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } }] : []))
  const message: Record<string, unknown> = { role: 'assistant', content: text || (calls.length ? null : ''), ...(r.stopReason === 'refusal' ? { refusal: text } : {}) }
  if (reasoning) message.reasoning_content = reasoning
  if (calls.length) message.tool_calls = calls
  return { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: toChatFinish(r.stopReason) }], usage: chatUsage(r.usage) }
}
