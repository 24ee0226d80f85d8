// Chat-completions body → canonical request (used when the upstream speaks another protocol).
import type { CMessage, CPart, CRequest, CToolChoice } from '../../core/canonical.ts'
import type { ChatRequest } from './schema.ts'

function parts(content: unknown): CPart[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  if (!Array.isArray(content)) return []
  return content.flatMap((p: any): CPart[] => {
    if (p?.type === 'text') return [{ type: 'text', text: String(p.text ?? '') }]
    if (p?.type === 'image_url') {
      const url = String(p.image_url?.url ?? '')
      const m = /^data:([^;]+);base64,(.*)$/.exec(url)
      return [m ? { type: 'image', mediaType: m[1], data: m[2] } : { type: 'image', url }]
    }
    return []
  })
}

export function decodeChat(body: ChatRequest): CRequest {
  const system: string[] = []
  const messages: CMessage[] = []
  const push = (role: 'user' | 'assistant', content: CPart[]) => {
    const last = messages.at(-1)
    if (last && last.role === role) last.content.push(...content)
    else messages.push({ role, content })
  }
  for (const m of body.messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(parts(m.content).map((p) => (p.type === 'text' ? p.text : '')).join(''))
    else if (m.role === 'tool') push('user', [{ type: 'tool_result', toolCallId: m.tool_call_id ?? '', content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '') }])
    else if (m.role === 'assistant') push('assistant', [...parts(m.content), ...(m.tool_calls ?? []).map((tc): CPart => ({ type: 'tool_call', id: tc.id, name: tc.function.name, arguments: tc.function.arguments }))])
    else push('user', parts(m.content))
  }
  const tc = body.tool_choice as any
  const toolChoice: CToolChoice | undefined = tc === undefined ? undefined : typeof tc === 'string' ? (tc as CToolChoice) : tc?.function?.name ? { name: String(tc.function.name) } : undefined
  const rf = body.response_format as any
  const effort = (body as any).reasoning_effort
  return {
    system: system.length ? system.join('\n\n') : undefined,
    messages,
    tools: (body.tools as any[] | undefined)?.filter((t) => t.type === 'function').map((t) => ({ name: t.function?.name, description: t.function?.description, parameters: t.function?.parameters ?? { type: 'object' } })),
    toolChoice,
    parallelToolCalls: (body as any).parallel_tool_calls,
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    temperature: body.temperature,
    topP: body.top_p,
    topK: undefined,
    stop: typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined),
    reasoning: effort === 'low' || effort === 'medium' || effort === 'high' ? { effort } : undefined,
    jsonSchema: rf?.type === 'json_object' ? 'json_object' : rf?.type === 'json_schema' ? { name: rf.json_schema?.name, schema: rf.json_schema?.schema, strict: rf.json_schema?.strict } : undefined,
    stream: body.stream === true,
  }
}
