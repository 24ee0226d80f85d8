// Canonical response → Responses-protocol object. `id` and `model` are always the service's own.
import { argsText, type CPart, type CResponse, type StopReason } from '../../core/canonical.ts'
import type { Usage } from '../../core/usage.ts'
import { toEncryptedContent } from '../../core/reasoning-carrier.ts'

export function responsesUsage(u: Usage | undefined) {
  const input = (u?.inputTokens ?? 0) + (u?.cacheReadTokens ?? 0) + (u?.cacheWriteTokens ?? 0)
  const output = u?.outputTokens ?? 0
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u?.cacheReadTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u?.reasoningTokens ?? 0 },
    total_tokens: input + output,
  }
}

export interface ResponseMeta {
  id: string
  model: string
  createdAt: number
}

export function responseObject(
  meta: ResponseMeta,
  status: 'in_progress' | 'completed' | 'incomplete',
  output: unknown[],
  usage: Usage | undefined,
  stop: StopReason | undefined,
) {
  const incomplete = status === 'incomplete' ? { reason: stop === 'content_filter' ? 'content_filter' : 'max_output_tokens' } : null
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    ...(status === 'in_progress' ? {} : { completed_at: Math.floor(Date.now() / 1000) }),
    status,
    error: null,
    incomplete_details: incomplete,
    model: meta.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: false,
    usage: status === 'in_progress' ? null : responsesUsage(usage),
  }
}

export const statusOf = (stop: StopReason): 'completed' | 'incomplete' =>
  stop === 'max_tokens' || stop === 'content_filter' ? 'incomplete' : 'completed'

/** Output items for the parts of one answer; item ids derive from the response id. */
export function outputItems(parts: CPart[], responseId: string): Record<string, unknown>[] {
  const suffix = responseId.replace(/^resp_/, '')
  const items: Record<string, unknown>[] = []
  let text: Record<string, unknown>[] = []
  const flush = () => {
    if (text.length)
      items.push({ id: `msg_${suffix}_${items.length}`, type: 'message', status: 'completed', role: 'assistant', content: text })
    text = []
  }
  for (const p of parts) {
    if (p.type === 'text')
      text.push(p.refusal ? { type: 'refusal', refusal: p.text } : { type: 'output_text', text: p.text, annotations: [] })
    else if (p.type === 'reasoning') {
      flush()
      const carried = toEncryptedContent(p)
      items.push({
        id: p.origin === 'openai-responses' && p.id ? p.id : `rs_${suffix}_${items.length}`,
        type: 'reasoning',
        summary: p.text ? [{ type: 'summary_text', text: p.text }] : [],
        ...(carried ? { encrypted_content: carried } : {}),
      })
    } else if (p.type === 'tool_call') {
      flush()
      items.push({
        id: `fc_${suffix}_${items.length}`,
        type: 'function_call',
        status: 'completed',
        call_id: p.id,
        name: p.name,
        arguments: argsText(p.arguments),
      })
    }
  }
  flush()
  return items
}

export function encodeResponse(r: CResponse, meta: ResponseMeta) {
  return responseObject(meta, statusOf(r.stopReason), outputItems(r.content, meta.id), r.usage, r.stopReason)
}
