// Canonical response → chat completion JSON. Reasoning is shown as `reasoning_content` (the
// field DeepSeek-style clients read); a refusal is `message.refusal` with null content, as
// OpenAI sends it.
import { argsText, type CPart, type CResponse, type StopReason } from '../../core/canonical.ts'
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

/** An explicit refusal answers "stop" (OpenAI); a refusal without one was a safety stop. */
export const chatFinish = (stop: StopReason, sawRefusalText: boolean): string =>
  stop === 'refusal' && sawRefusalText ? 'stop' : toChatFinish(stop)

const join = (parts: CPart[], pick: (p: CPart) => string | undefined) => parts.map((p) => pick(p) ?? '').join('')

export function encodeChat(r: CResponse, id: string, model: string, created: number) {
  const text = join(r.content, (p) => (p.type === 'text' && !p.refusal ? p.text : undefined))
  const refusal = join(r.content, (p) => (p.type === 'text' && p.refusal ? p.text : undefined))
  const reasoning = join(r.content, (p) => (p.type === 'reasoning' ? p.text : undefined))
  const calls = r.content.flatMap((p) =>
    p.type === 'tool_call' ? [{ id: p.id, type: 'function', function: { name: p.name, arguments: argsText(p.arguments) } }] : [],
  )
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text || (calls.length || refusal ? null : ''),
    refusal: refusal || null,
  }
  if (reasoning) message.reasoning_content = reasoning
  if (calls.length) message.tool_calls = calls
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinish(r.stopReason, refusal !== '') }],
    usage: chatUsage(r.usage),
  }
}
