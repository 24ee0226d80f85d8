// OpenAI response object → canonical response. Hosted-tool items (web search, …) cannot cross
// protocols and are left out; reasoning keeps its encrypted_content for a responses upstream.
import type { CPart, CResponse, StopReason } from '../../core/canonical.ts'
import { fromResponsesUsage } from '../../core/usage.ts'
import { asList } from '../../lib/json.ts'
import type { ResponsesItemWire, ResponseWire } from './wire.ts'

export function fromResponsesStatus(status: unknown, reason: unknown, hasCalls: boolean): StopReason {
  if (status === 'incomplete') return reason === 'content_filter' ? 'content_filter' : 'max_tokens'
  return hasCalls ? 'tool_use' : 'end'
}

/** Summary parts join with a newline; raw reasoning text (open-weight models) when no summary. */
export function reasoningText(item: ResponsesItemWire): string {
  const summary = asList(item.summary)
    .map((s) => String(s?.text ?? ''))
    .join('\n')
  return (
    summary ||
    asList(item.content)
      .map((c) => (c?.type === 'reasoning_text' ? String(c.text ?? '') : ''))
      .join('')
  )
}

export function parseResponsesResponse(json: ResponseWire): CResponse {
  const content: CPart[] = []
  let refusal = false
  for (const item of asList(json.output)) {
    if (item.type === 'reasoning')
      content.push({
        type: 'reasoning',
        text: reasoningText(item),
        encrypted: item.encrypted_content ?? undefined,
        id: item.id,
        origin: 'openai-responses',
      })
    else if (item.type === 'message') {
      for (const part of asList(item.content)) {
        if (part.type === 'output_text') content.push({ type: 'text', text: part.text ?? '' })
        else if (part.type === 'refusal') {
          refusal = true
          content.push({ type: 'text', text: part.refusal ?? '', refusal: true })
        }
      }
    } else if (item.type === 'function_call')
      content.push({ type: 'tool_call', id: String(item.call_id), name: String(item.name), arguments: item.arguments || '{}' })
  }
  const hasCalls = content.some((p) => p.type === 'tool_call')
  const stopReason = refusal ? 'refusal' : fromResponsesStatus(json.status, json.incomplete_details?.reason, hasCalls)
  return { id: String(json.id ?? ''), content, stopReason, stopSequence: undefined, usage: fromResponsesUsage(json.usage) }
}
