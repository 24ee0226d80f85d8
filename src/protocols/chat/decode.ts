// Chat-completions body → canonical request (used when the upstream speaks another protocol).
// Leading system and developer messages become `system`, later ones stay at their position;
// tool messages become tool results in the user turn; OpenRouter-style `cache_control` on parts
// is kept as a cache hint.
import { argsText, type CPart, type CRequest, type CTool, type CToolChoice, type TextPart } from '../../core/canonical.ts'
import { conversation } from '../../core/conversation.ts'
import { cacheFrom, effortFrom } from '../../core/effort.ts'
import { fromUrl } from '../../core/media.ts'
import type { ChatInputMessageWire, ChatPartWire, ChatRequest, ChatRequestExtras } from './schema.ts'

const withCache = <P extends CPart | CTool>(p: P, c: unknown): P => {
  const cache = cacheFrom(c)
  return cache ? { ...p, cache } : p
}

function part(p: ChatPartWire | undefined): CPart | undefined {
  switch (p?.type) {
    case 'text':
      return withCache({ type: 'text', text: String(p.text ?? '') }, p.cache_control)
    case 'refusal':
      return { type: 'text', text: String(p.refusal ?? ''), refusal: true }
    case 'image_url': {
      const url = String(p.image_url?.url ?? '')
      return withCache(
        { type: 'image', ...fromUrl(url), ...(p.image_url?.detail ? { detail: String(p.image_url.detail) } : {}) },
        p.cache_control,
      )
    }
    case 'file': {
      // A file_id names a file stored at one vendor: it cannot cross.
      const data = p.file?.file_data
      if (typeof data !== 'string') return undefined
      return withCache(
        { type: 'file', ...fromUrl(data), ...(p.file?.filename ? { filename: String(p.file.filename) } : {}) },
        p.cache_control,
      )
    }
    default:
      return undefined
  }
}

const parts = (content: unknown): CPart[] =>
  typeof content === 'string'
    ? content
      ? [{ type: 'text', text: content }]
      : []
    : Array.isArray(content)
      ? (content as (ChatPartWire | undefined)[]).map(part).filter((p): p is CPart => p !== undefined)
      : []

function toolChoice(tc: unknown): CToolChoice | undefined {
  if (tc === 'auto' || tc === 'none' || tc === 'required') return tc
  const name = (tc as { function?: { name?: unknown } } | null | undefined)?.function?.name
  return name ? { name: String(name) } : undefined
}

function reasoning(body: ChatRequestExtras): CRequest['reasoning'] {
  const r = body.reasoning
  if (r && typeof r === 'object' && r.enabled !== false) {
    if (typeof r.max_tokens === 'number') return { budgetTokens: r.max_tokens }
    const e = effortFrom(r.effort)
    return e === 'none' ? undefined : { effort: e }
  }
  if (body.reasoning_effort === undefined || body.reasoning_effort === null) return undefined
  const e = effortFrom(body.reasoning_effort)
  return e === 'none' ? undefined : { effort: e }
}

export function decodeChat(body: ChatRequest): CRequest {
  const c = conversation()
  const push = c.turn
  for (const m of body.messages as ChatInputMessageWire[]) {
    if (m.role === 'system' || m.role === 'developer') c.instruct(parts(m.content).filter((p): p is TextPart => p.type === 'text'))
    else if (m.role === 'tool') {
      const content = parts(m.content).filter((p): p is TextPart => p.type === 'text')
      push('user', [{ type: 'tool_result', toolCallId: String(m.tool_call_id ?? ''), content }])
    } else if (m.role === 'assistant') {
      const refusal: CPart[] = typeof m.refusal === 'string' && m.refusal ? [{ type: 'text', text: m.refusal, refusal: true }] : []
      const calls = (m.tool_calls ?? []).map(
        (tc): CPart => ({
          type: 'tool_call',
          id: String(tc.id),
          name: String(tc.function?.name ?? ''),
          arguments: argsText(String(tc.function?.arguments ?? '')),
        }),
      )
      push('assistant', [...parts(m.content), ...refusal, ...calls])
    } else push('user', parts(m.content))
  }
  const b = body as Omit<ChatRequest, 'tools'> & ChatRequestExtras
  const rf = b.response_format
  return {
    system: c.system.length ? c.system : undefined,
    messages: c.messages,
    tools: b.tools
      ?.filter((t) => t.type === 'function' && t.function?.name)
      .map(
        (t): CTool =>
          withCache(
            {
              name: String(t.function!.name),
              description: t.function!.description,
              parameters: t.function!.parameters ?? { type: 'object' },
              ...(typeof t.function!.strict === 'boolean' ? { strict: t.function!.strict } : {}),
            },
            t.cache_control,
          ),
      ),
    toolChoice: toolChoice(b.tool_choice),
    parallelToolCalls: typeof b.parallel_tool_calls === 'boolean' ? b.parallel_tool_calls : undefined,
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    temperature: body.temperature,
    topP: body.top_p,
    topK: typeof b.top_k === 'number' ? b.top_k : undefined,
    stop: typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined),
    reasoning: reasoning(b),
    jsonSchema:
      rf?.type === 'json_object'
        ? 'json_object'
        : rf?.type === 'json_schema'
          ? { name: rf.json_schema?.name, schema: rf.json_schema?.schema, strict: rf.json_schema?.strict }
          : undefined,
    user: typeof body.user === 'string' ? body.user : typeof b.safety_identifier === 'string' ? b.safety_identifier : undefined,
    stream: body.stream === true,
  }
}
