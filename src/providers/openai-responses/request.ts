// Canonical request → OpenAI responses body. Stateless (store false): history is sent as input
// items; reasoning items (with encrypted_content) go back only when they came from a responses
// upstream; a mid-conversation instruction is a `developer` message item at its position; stop
// sequences and top_k have no field here.
import {
  systemText,
  type CMessage,
  type CPart,
  type CRequest,
  type CSystemMessage,
  type CTurn,
  type ImagePart,
} from '../../core/canonical.ts'
import { toDataUrl } from '../../core/media.ts'

type Item = Record<string, unknown>

const inputImage = (p: ImagePart): Item => ({
  type: 'input_image',
  image_url: p.data !== undefined ? toDataUrl(p.mediaType ?? 'image/png', p.data) : (p.url ?? ''),
  detail: p.detail ?? 'auto',
})

function contentPart(p: CPart, role: CTurn['role']): Item | undefined {
  if (p.type === 'text')
    return role === 'assistant'
      ? p.refusal
        ? { type: 'refusal', refusal: p.text }
        : { type: 'output_text', text: p.text }
      : { type: 'input_text', text: p.text }
  if (p.type === 'image') return inputImage(p)
  if (p.type === 'file')
    return {
      type: 'input_file',
      ...(p.data !== undefined ? { file_data: toDataUrl(p.mediaType ?? 'application/pdf', p.data) } : { file_url: p.url }),
      ...(p.filename ? { filename: p.filename } : {}),
    }
  return undefined
}

const developerItem = (m: CSystemMessage): Item[] => {
  const content = m.content.filter((p) => p.text).map((p) => ({ type: 'input_text', text: p.text }))
  return content.length ? [{ type: 'message', role: 'developer', content }] : []
}

export function inputItems(messages: CMessage[]): Item[] {
  const items: Item[] = []
  for (const m of messages) {
    if (m.role === 'system') {
      items.push(...developerItem(m))
      continue
    }
    let parts: Item[] = []
    const flush = () => {
      if (parts.length) items.push({ type: 'message', role: m.role, content: parts })
      parts = []
    }
    for (const p of m.content) {
      const part = contentPart(p, m.role)
      if (part) {
        parts.push(part)
        continue
      }
      flush()
      if (p.type === 'tool_call') items.push({ type: 'function_call', call_id: p.id, name: p.name, arguments: p.arguments })
      else if (p.type === 'tool_result') {
        const text = p.content.every((c) => c.type === 'text')
        const output = text
          ? p.content.map((c) => (c as { text: string }).text).join('')
          : p.content.map((c) => (c.type === 'text' ? { type: 'input_text', text: c.text } : inputImage(c)))
        items.push({ type: 'function_call_output', call_id: p.toolCallId, output })
      } else if (p.type === 'reasoning' && p.origin === 'openai-responses' && p.encrypted)
        items.push({
          type: 'reasoning',
          ...(p.id ? { id: p.id } : {}),
          summary: p.text ? [{ type: 'summary_text', text: p.text }] : [],
          encrypted_content: p.encrypted,
        })
    }
    flush()
  }
  return items
}

export function responsesBody(req: CRequest, model: string): string {
  const c = req.toolChoice
  const tools = req.tools?.length ? req.tools : undefined
  const f = req.jsonSchema
  return JSON.stringify({
    model,
    instructions: systemText(req),
    input: inputItems(req.messages),
    stream: req.stream || undefined,
    store: false,
    // The responses API refuses caps below 16 tokens.
    max_output_tokens: req.maxTokens === undefined ? undefined : Math.max(16, req.maxTokens),
    temperature: req.temperature,
    top_p: req.topP,
    tools: tools?.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: t.strict ?? false,
    })),
    tool_choice: !tools || c === undefined ? undefined : typeof c === 'string' ? c : { type: 'function', name: c.name },
    parallel_tool_calls: tools ? req.parallelToolCalls : undefined,
    reasoning: req.reasoning ? { effort: req.reasoning.effort ?? effortOfBudget(req.reasoning.budgetTokens), summary: 'auto' } : undefined,
    include: req.reasoning ? ['reasoning.encrypted_content'] : undefined,
    text:
      f === 'json_object'
        ? { format: { type: 'json_object' } }
        : f
          ? {
              format: {
                type: 'json_schema',
                name: f.name ?? 'output',
                schema: f.schema,
                ...(f.strict !== undefined ? { strict: f.strict } : {}),
              },
            }
          : undefined,
    user: req.user,
  })
}

const effortOfBudget = (budget: number | undefined) => ((budget ?? 4_096) <= 2_048 ? 'low' : (budget ?? 4_096) <= 8_192 ? 'medium' : 'high')
