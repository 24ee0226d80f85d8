// OpenAI-chat upstream through the canonical model (used when the caller speaks another
// protocol). Reasoning can't be sent back to a chat upstream and is dropped from history.
import type { CEvent, CMessage, CRequest, CResponse, CToolChoice } from '../../core/canonical.ts'
import { fromOpenAiChatUsage } from '../../core/usage.ts'
import type { UpstreamAdapter } from '../adapter.ts'
import { fromChatFinish } from '../../core/stop-reasons.ts'
import { OPENAI_CHAT_PATH, openAiChatBody, openAiHeaders } from './request.ts'

function chatMessages(req: CRequest): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  if (req.system) out.push({ role: 'system', content: req.system })
  for (const m of req.messages) out.push(...chatMessage(m))
  return out
}

function chatMessage(m: CMessage): Record<string, unknown>[] {
  if (m.role === 'assistant') {
    const text = m.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('')
    const calls = m.content.flatMap((p) => (p.type === 'tool_call' ? [{ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } }] : []))
    return [{ role: 'assistant', content: text || (calls.length ? null : ''), ...(calls.length ? { tool_calls: calls } : {}) }]
  }
  const out: Record<string, unknown>[] = []
  for (const p of m.content) if (p.type === 'tool_result') out.push({ role: 'tool', tool_call_id: p.toolCallId, content: p.content })
  const parts = m.content.flatMap((p): Record<string, unknown>[] => {
    if (p.type === 'text') return [{ type: 'text', text: p.text }]
    if (p.type === 'image') return [{ type: 'image_url', image_url: { url: p.url ?? `data:${p.mediaType ?? 'image/png'};base64,${p.data}` } }]
    return []
  })
  if (parts.length) out.push({ role: 'user', content: parts.every((p) => p.type === 'text') ? parts.map((p) => p.text).join('\n') : parts })
  return out
}

function toolChoice(c: CToolChoice | undefined): unknown {
  if (c === undefined) return undefined
  return typeof c === 'string' ? c : { type: 'function', function: { name: c.name } }
}

export const openAiChatAdapter: UpstreamAdapter = {
  path: OPENAI_CHAT_PATH,
  headers: (apiKey) => openAiHeaders(apiKey),
  passthroughBody: openAiChatBody,
  body(req, model) {
    const body: Record<string, unknown> = {
      model,
      messages: chatMessages(req),
      stream: req.stream,
      ...(req.stream ? { stream_options: { include_usage: true } } : {}),
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      top_p: req.topP,
      stop: req.stop,
      tools: req.tools?.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
      tool_choice: toolChoice(req.toolChoice),
      parallel_tool_calls: req.tools ? req.parallelToolCalls : undefined,
      reasoning_effort: req.reasoning?.effort,
      response_format:
        req.jsonSchema === 'json_object' ? { type: 'json_object' } : req.jsonSchema ? { type: 'json_schema', json_schema: { name: req.jsonSchema.name ?? 'output', schema: req.jsonSchema.schema, strict: req.jsonSchema.strict } } : undefined,
    }
    return JSON.stringify(body)
  },
  parseResponse(json): CResponse {
    const choice = json.choices?.[0] ?? {}
    const msg = choice.message ?? {}
    const content: CResponse['content'] = []
    if (typeof msg.reasoning_content === 'string' && msg.reasoning_content) content.push({ type: 'reasoning', text: msg.reasoning_content, origin: 'openai-chat' })
    if (typeof msg.content === 'string' && msg.content) content.push({ type: 'text', text: msg.content })
    if (typeof msg.refusal === 'string' && msg.refusal) content.push({ type: 'text', text: msg.refusal })
    for (const tc of msg.tool_calls ?? []) content.push({ type: 'tool_call', id: tc.id, name: tc.function?.name ?? '', arguments: tc.function?.arguments || '{}' })
    const hasCalls = content.some((p) => p.type === 'tool_call')
    const stopReason = msg.refusal ? 'refusal' : fromChatFinish(choice.finish_reason, hasCalls)
    return { id: String(json.id ?? ''), content, stopReason, stopSequence: undefined, usage: fromOpenAiChatUsage(json.usage) }
  },
  streamDecoder() {
    let finish: unknown
    let refusal = false
    const tools = new Set<number>()
    let done = false
    return {
      push(ev) {
        if (ev.data === '[DONE]') {
          done = true
          return []
        }
        const chunk = JSON.parse(ev.data)
        if (chunk.error) return [{ type: 'error', message: String(chunk.error.message ?? 'upstream error') }]
        const out: CEvent[] = []
        for (const c of chunk.choices ?? []) {
          const d = c.delta ?? {}
          if (typeof d.reasoning_content === 'string' && d.reasoning_content) out.push({ type: 'reasoning', text: d.reasoning_content })
          if (typeof d.content === 'string' && d.content) out.push({ type: 'text', text: d.content })
          if (typeof d.refusal === 'string' && d.refusal) {
            refusal = true
            out.push({ type: 'text', text: d.refusal })
          }
          for (const tc of d.tool_calls ?? []) {
            const index = Number(tc.index ?? 0)
            if (!tools.has(index) && (tc.id || tc.function?.name)) {
              tools.add(index)
              out.push({ type: 'tool_call_start', index, id: tc.id ?? `call_${index}`, name: tc.function?.name ?? '' })
            }
            if (tc.function?.arguments) out.push({ type: 'tool_call_args', index, delta: tc.function.arguments })
          }
          if (c.finish_reason) finish = c.finish_reason
        }
        const usage = fromOpenAiChatUsage(chunk.usage)
        if (usage) out.push({ type: 'usage', usage })
        return out
      },
      end() {
        if (finish === undefined && !done) throw new Error('stream ended before finish_reason')
        return [{ type: 'finish', stopReason: refusal ? 'refusal' : fromChatFinish(finish, tools.size > 0) }]
      },
    }
  },
}
