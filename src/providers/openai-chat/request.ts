// Canonical request → OpenAI chat-completions body (when the caller speaks another protocol).
// Reasoning cannot be sent back to a chat upstream and is dropped from history; images inside
// tool results follow the tool messages as a user message (tool messages carry text only); a
// mid-conversation instruction is a `system` message at its position.
import { systemText, type CMessage, type CPart, type CRequest, type CToolChoice, type ImagePart } from '../../core/canonical.ts'
import { toDataUrl } from '../../core/media.ts'

type Msg = Record<string, unknown>

const imageUrl = (p: ImagePart) => ({
  type: 'image_url',
  image_url: {
    url: p.data !== undefined ? toDataUrl(p.mediaType ?? 'image/png', p.data) : (p.url ?? ''),
    ...(p.detail ? { detail: p.detail } : {}),
  },
})

function userPart(p: CPart): Msg | undefined {
  if (p.type === 'text') return p.text ? { type: 'text', text: p.text } : undefined
  if (p.type === 'image') return imageUrl(p)
  if (p.type === 'file')
    return {
      type: 'file',
      file: {
        ...(p.data !== undefined ? { file_data: toDataUrl(p.mediaType ?? 'application/pdf', p.data) } : { file_data: p.url }),
        ...(p.filename ? { filename: p.filename } : {}),
      },
    }
  return undefined
}

function chatMessage(m: CMessage): Msg[] {
  if (m.role === 'system') {
    const text = systemText({ system: m.content })
    return text ? [{ role: 'system', content: text }] : []
  }
  if (m.role === 'assistant') {
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
    const calls = m.content.flatMap((p) =>
      p.type === 'tool_call' ? [{ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } }] : [],
    )
    if (!text && !calls.length) return []
    return [{ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) }]
  }
  const out: Msg[] = []
  const resultImages: Msg[] = []
  for (const p of m.content) {
    if (p.type !== 'tool_result') continue
    out.push({ role: 'tool', tool_call_id: p.toolCallId, content: p.content.map((c) => (c.type === 'text' ? c.text : '')).join('') })
    for (const c of p.content) if (c.type === 'image') resultImages.push(imageUrl(c))
  }
  const parts = [...resultImages, ...m.content.map(userPart).filter((p): p is Msg => p !== undefined)]
  if (parts.length) out.push({ role: 'user', content: parts.every((p) => p.type === 'text') ? parts.map((p) => p.text).join('\n') : parts })
  return out
}

const toolChoice = (c: CToolChoice | undefined): unknown =>
  c === undefined ? undefined : typeof c === 'string' ? c : { type: 'function', function: { name: c.name } }

/** A thinking budget read as an effort level (docs/translation.md). */
export const effortOf = (r: CRequest['reasoning']) =>
  r === undefined
    ? undefined
    : (r.effort ?? ((r.budgetTokens ?? 4_096) <= 2_048 ? 'low' : (r.budgetTokens ?? 4_096) <= 8_192 ? 'medium' : 'high'))

export function chatBody(req: CRequest, model: string): string {
  const system = systemText(req)
  const tools = req.tools?.length ? req.tools : undefined
  const effort = effortOf(req.reasoning)
  return JSON.stringify({
    model,
    messages: [...(system ? [{ role: 'system', content: system }] : []), ...req.messages.flatMap(chatMessage)],
    stream: req.stream,
    ...(req.stream ? { stream_options: { include_usage: true } } : {}),
    // Reasoning models refuse max_tokens; other OpenAI-compatible servers know only max_tokens.
    ...(effort ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }),
    temperature: req.temperature,
    top_p: req.topP,
    // OpenAI accepts at most 4 stop sequences.
    stop: req.stop?.length ? req.stop.slice(0, 4) : undefined,
    tools: tools?.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        ...(t.strict !== undefined ? { strict: t.strict } : {}),
      },
    })),
    tool_choice: tools ? toolChoice(req.toolChoice) : undefined,
    parallel_tool_calls: tools ? req.parallelToolCalls : undefined,
    reasoning_effort: effort,
    response_format:
      req.jsonSchema === 'json_object'
        ? { type: 'json_object' }
        : req.jsonSchema
          ? {
              type: 'json_schema',
              json_schema: {
                name: req.jsonSchema.name ?? 'output',
                schema: req.jsonSchema.schema,
                ...(req.jsonSchema.strict !== undefined ? { strict: req.jsonSchema.strict } : {}),
              },
            }
          : undefined,
    user: req.user,
  })
}
