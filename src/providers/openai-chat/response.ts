// OpenAI chat completion JSON → canonical response. Reasoning arrives as `reasoning_content`
// (DeepSeek) or `reasoning` (OpenRouter); a refusal is text flagged as such.
import type { CPart, CResponse } from '../../core/canonical.ts'
import { fromChatFinish } from '../../core/stop-reasons.ts'
import { fromOpenAiChatUsage } from '../../core/usage.ts'
import { asList } from '../../lib/json.ts'
import type { ChatChoiceWire, ChatCompletionWire, ChatMessageWire } from './wire.ts'

export const reasoningOf = (m: ChatMessageWire): string | undefined =>
  typeof m?.reasoning_content === 'string' ? m.reasoning_content : typeof m?.reasoning === 'string' ? m.reasoning : undefined

export function parseChatResponse(json: ChatCompletionWire): CResponse {
  const choice: ChatChoiceWire = asList(json.choices)[0] ?? {}
  const msg = choice.message ?? {}
  const content: CPart[] = []
  const reasoning = reasoningOf(msg)
  if (reasoning) content.push({ type: 'reasoning', text: reasoning, origin: 'openai-chat' })
  if (typeof msg.content === 'string' && msg.content) content.push({ type: 'text', text: msg.content })
  if (typeof msg.refusal === 'string' && msg.refusal) content.push({ type: 'text', text: msg.refusal, refusal: true })
  for (const tc of asList(msg.tool_calls))
    content.push({ type: 'tool_call', id: String(tc.id), name: tc.function?.name ?? '', arguments: tc.function?.arguments || '{}' })
  const hasCalls = content.some((p) => p.type === 'tool_call')
  const stopReason = msg.refusal ? 'refusal' : fromChatFinish(choice.finish_reason, hasCalls)
  return { id: String(json.id ?? ''), content, stopReason, stopSequence: undefined, usage: fromOpenAiChatUsage(json.usage) }
}
