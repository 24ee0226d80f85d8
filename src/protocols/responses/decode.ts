// Responses body → canonical request. Stateless: history comes in `input`.
import type { CMessage, CPart, CRequest, CToolChoice } from '../../core/canonical.ts'
import { fromEncryptedContent } from '../../core/reasoning-carrier.ts'
import type { ResponsesRequest } from './schema.ts'

function contentParts(content: unknown): CPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) return []
  return content.flatMap((p: any): CPart[] => {
    if (p?.type === 'input_text' || p?.type === 'output_text' || p?.type === 'text') return [{ type: 'text', text: String(p.text ?? '') }]
    if (p?.type === 'refusal') return [{ type: 'text', text: String(p.refusal ?? '') }]
    if (p?.type === 'input_image') return [{ type: 'image', url: p.image_url }]
    return []
  })
}

export function decodeResponses(body: ResponsesRequest): CRequest {
  const system: string[] = body.instructions ? [body.instructions] : []
  const messages: CMessage[] = []
  const push = (role: 'user' | 'assistant', parts: CPart[]) => {
    const last = messages.at(-1)
    if (last && last.role === role) last.content.push(...parts)
    else messages.push({ role, content: parts })
  }
  const items = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input as any[])
  for (const item of items) {
    const type = item.type ?? (item.role ? 'message' : undefined)
    if (type === 'message') {
      if (item.role === 'system' || item.role === 'developer') system.push(contentParts(item.content).map((p) => (p.type === 'text' ? p.text : '')).join(''))
      else push(item.role === 'assistant' ? 'assistant' : 'user', contentParts(item.content))
    } else if (type === 'function_call') push('assistant', [{ type: 'tool_call', id: String(item.call_id), name: String(item.name), arguments: String(item.arguments ?? '{}') }])
    else if (type === 'function_call_output') push('user', [{ type: 'tool_result', toolCallId: String(item.call_id), content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) }])
    else if (type === 'reasoning')
      push('assistant', [{ type: 'reasoning', text: (item.summary ?? []).map((s: any) => s.text ?? '').join('\n'), id: item.id, ...fromEncryptedContent(item.encrypted_content ?? undefined) }])
  }
  const tc = body.tool_choice as any
  const toolChoice: CToolChoice | undefined = tc === undefined ? undefined : typeof tc === 'string' ? (tc as CToolChoice) : tc?.name ? { name: String(tc.name) } : undefined
  const format = body.text?.format as any
  const effort = body.reasoning?.effort
  return {
    system: system.length ? system.join('\n\n') : undefined,
    messages,
    tools: (body.tools as any[] | undefined)?.filter((t) => t.type === 'function').map((t) => ({ name: t.name, description: t.description, parameters: t.parameters ?? { type: 'object' } })),
    toolChoice,
    parallelToolCalls: body.parallel_tool_calls,
    maxTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    topK: undefined,
    stop: undefined,
    reasoning: effort === 'low' || effort === 'medium' || effort === 'high' ? { effort } : body.reasoning ? { effort: 'medium' } : undefined,
    jsonSchema: format?.type === 'json_object' ? 'json_object' : format?.type === 'json_schema' ? { name: format.name, schema: format.schema, strict: format.strict } : undefined,
    stream: body.stream === true,
  }
}

export const responsesPromptChars = (body: ResponsesRequest): number =>
  (typeof body.input === 'string' ? body.input.length : JSON.stringify(body.input).length) + (body.instructions?.length ?? 0) + (body.tools ? JSON.stringify(body.tools).length : 0)
