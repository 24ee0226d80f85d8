// OpenAI responses upstream through the canonical model. Reasoning items (with
// encrypted_content) go back only to a responses upstream; the request is stateless (store false).
import type { CEvent, CPart, CRequest, CResponse, StopReason } from '../../core/canonical.ts'
import { fromResponsesUsage } from '../../core/usage.ts'
import { carriesAnthropic } from '../../core/reasoning-carrier.ts'
import { openAiHeaders } from '../openai-chat/request.ts'
import type { UpstreamAdapter } from '../adapter.ts'

function inputItems(req: CRequest): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = []
  for (const m of req.messages) {
    let parts: Record<string, unknown>[] = []
    const flush = () => {
      if (parts.length) items.push({ type: 'message', role: m.role, content: parts })
      parts = []
    }
    for (const p of m.content) {
      if (p.type === 'text') parts.push({ type: m.role === 'assistant' ? 'output_text' : 'input_text', text: p.text })
      else if (p.type === 'image') parts.push({ type: 'input_image', image_url: p.url ?? `data:${p.mediaType ?? 'image/png'};base64,${p.data}` })
      else {
        flush()
        if (p.type === 'tool_call') items.push({ type: 'function_call', call_id: p.id, name: p.name, arguments: p.arguments })
        else if (p.type === 'tool_result') items.push({ type: 'function_call_output', call_id: p.toolCallId, output: p.content })
        else if (p.type === 'reasoning' && p.origin === 'openai-responses' && p.encrypted)
          items.push({ type: 'reasoning', ...(p.id ? { id: p.id } : {}), summary: p.text ? [{ type: 'summary_text', text: p.text }] : [], encrypted_content: p.encrypted })
      }
    }
    flush()
  }
  return items
}

export function fromResponsesStatus(status: unknown, reason: unknown, hasCalls: boolean): StopReason {
  if (status === 'incomplete') return reason === 'content_filter' ? 'content_filter' : 'max_tokens'
  return hasCalls ? 'tool_use' : 'end'
}

export const openAiResponsesAdapter: UpstreamAdapter = {
  path: '/responses',
  headers: (apiKey) => openAiHeaders(apiKey),
  // The caller's own body, minus reasoning items that carry Anthropic's signature.
  passthroughBody: (raw, model) => JSON.stringify({ ...raw, model, ...(Array.isArray(raw.input) ? { input: raw.input.filter((i: any) => !carriesAnthropic(i ?? {})) } : {}) }),
  body(req, model) {
    const c = req.toolChoice
    return JSON.stringify({
      model,
      instructions: req.system,
      input: inputItems(req),
      stream: req.stream || undefined,
      store: false,
      max_output_tokens: req.maxTokens,
      temperature: req.temperature,
      top_p: req.topP,
      tools: req.tools?.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false })),
      tool_choice: c === undefined ? undefined : typeof c === 'string' ? c : { type: 'function', name: c.name },
      parallel_tool_calls: req.tools ? req.parallelToolCalls : undefined,
      reasoning: req.reasoning ? { effort: req.reasoning.effort ?? 'medium', summary: 'auto' } : undefined,
      include: req.reasoning ? ['reasoning.encrypted_content'] : undefined,
      text:
        req.jsonSchema === 'json_object'
          ? { format: { type: 'json_object' } }
          : req.jsonSchema
            ? { format: { type: 'json_schema', name: req.jsonSchema.name ?? 'output', schema: req.jsonSchema.schema, strict: req.jsonSchema.strict } }
            : undefined,
    })
  },
  parseResponse(json): CResponse {
    const content: CPart[] = []
    let refusal = false
    for (const item of json.output ?? []) {
      if (item.type === 'reasoning') {
        const text = (item.summary ?? []).map((s: any) => s.text ?? '').join('\n')
        content.push({ type: 'reasoning', text, encrypted: item.encrypted_content ?? undefined, id: item.id, origin: 'openai-responses' })
      } else if (item.type === 'message') {
        for (const part of item.content ?? []) {
          if (part.type === 'output_text') content.push({ type: 'text', text: part.text ?? '' })
          else if (part.type === 'refusal') {
            refusal = true
            content.push({ type: 'text', text: part.refusal ?? '' })
          }
        }
      } else if (item.type === 'function_call') content.push({ type: 'tool_call', id: item.call_id, name: item.name, arguments: item.arguments || '{}' })
    }
    const hasCalls = content.some((p) => p.type === 'tool_call')
    const stopReason = refusal ? 'refusal' : fromResponsesStatus(json.status, json.incomplete_details?.reason, hasCalls)
    return { id: String(json.id ?? ''), content, stopReason, stopSequence: undefined, usage: fromResponsesUsage(json.usage) }
  },
  streamDecoder() {
    const tools = new Map<string, number>() // item id → tool index
    let final: CEvent[] | undefined
    let refusal = false
    return {
      push(ev) {
        const data = JSON.parse(ev.data)
        switch (data.type) {
          case 'response.output_item.added':
            if (data.item?.type === 'function_call') {
              const index = tools.size
              tools.set(data.item.id ?? `fc_${index}`, index)
              return [{ type: 'tool_call_start', index, id: data.item.call_id, name: data.item.name }]
            }
            return []
          case 'response.output_text.delta':
            return data.delta ? [{ type: 'text', text: data.delta }] : []
          case 'response.refusal.delta':
            refusal = true
            return data.delta ? [{ type: 'text', text: data.delta }] : []
          case 'response.reasoning_summary_part.added':
            // Summary parts join with a newline, as in the JSON answer.
            return data.summary_index > 0 ? [{ type: 'reasoning', text: '\n' }] : []
          case 'response.reasoning_summary_text.delta':
          case 'response.reasoning_text.delta':
            return data.delta ? [{ type: 'reasoning', text: data.delta }] : []
          case 'response.function_call_arguments.delta':
            return data.delta ? [{ type: 'tool_call_args', index: tools.get(data.item_id) ?? 0, delta: data.delta }] : []
          case 'response.output_item.done':
            return data.item?.type === 'reasoning' && data.item.encrypted_content ? [{ type: 'reasoning_encrypted', data: data.item.encrypted_content, id: data.item.id }] : []
          case 'response.completed':
          case 'response.incomplete': {
            const r = data.response ?? {}
            const usage = fromResponsesUsage(r.usage)
            const stopReason = refusal ? 'refusal' : fromResponsesStatus(r.status, r.incomplete_details?.reason, tools.size > 0)
            final = [...(usage ? [{ type: 'usage' as const, usage }] : []), { type: 'finish', stopReason }]
            return []
          }
          case 'response.failed':
          case 'error':
            return [{ type: 'error', message: String(data.response?.error?.message ?? data.message ?? 'upstream error') }]
          default:
            return []
        }
      },
      end() {
        if (!final) throw new Error('stream ended before response.completed')
        return final
      },
    }
  },
}
