// Anthropic messages body → canonical request. cache_control becomes a cache hint; thinking
// signatures are unwrapped (reasoning-carrier) so each proof returns to its own vendor.
import type { CMessage, CPart, CRequest, CTool, CToolChoice, ImagePart, TextPart } from '../../core/canonical.ts'
import { cacheFrom, effortFrom } from '../../core/effort.ts'
import { promptChars } from '../../core/prompt-size.ts'
import { fromSignature } from '../../core/reasoning-carrier.ts'
import type { MessagesBlockWire, MessagesRequest, MessagesRequestExtras, MessagesToolWire } from './schema.ts'

const withCache = <P extends CPart | CTool>(p: P, c: unknown): P => {
  const cache = cacheFrom(c)
  return cache ? { ...p, cache } : p
}

function image(b: MessagesBlockWire): ImagePart | undefined {
  const s = b.source ?? {}
  if (s.type === 'base64')
    return withCache({ type: 'image', mediaType: String(s.media_type ?? 'image/png'), data: String(s.data ?? '') }, b.cache_control)
  if (s.type === 'url') return withCache({ type: 'image', url: String(s.url ?? '') }, b.cache_control)
  return undefined // a file_id names a file stored at one vendor: it cannot cross
}

function document(b: MessagesBlockWire): CPart | undefined {
  const s = b.source ?? {}
  const meta = b.title ? { filename: String(b.title) } : {}
  if (s.type === 'base64')
    return withCache(
      { type: 'file', mediaType: String(s.media_type ?? 'application/pdf'), data: String(s.data ?? ''), ...meta },
      b.cache_control,
    )
  if (s.type === 'url') return withCache({ type: 'file', url: String(s.url ?? ''), ...meta }, b.cache_control)
  if (s.type === 'text')
    return withCache(
      { type: 'file', mediaType: 'text/plain', data: Buffer.from(String(s.data ?? '')).toString('base64'), ...meta },
      b.cache_control,
    )
  return undefined
}

function resultContent(c: unknown): (TextPart | ImagePart)[] {
  if (typeof c === 'string') return c ? [{ type: 'text', text: c }] : []
  if (!Array.isArray(c)) return []
  return (c as (MessagesBlockWire | undefined)[]).flatMap((b): (TextPart | ImagePart)[] =>
    b?.type === 'text'
      ? [{ type: 'text', text: String(b.text ?? '') }]
      : b?.type === 'image'
        ? [image(b)].filter((i): i is ImagePart => i !== undefined)
        : [],
  )
}

/** Server-tool blocks (web search, code execution, …) belong to Anthropic and are left out. */
function part(b: MessagesBlockWire | undefined): CPart | undefined {
  switch (b?.type) {
    case 'text':
      return withCache({ type: 'text', text: String(b.text ?? '') }, b.cache_control)
    case 'image':
      return image(b)
    case 'document':
      return document(b)
    case 'tool_use':
      return { type: 'tool_call', id: String(b.id), name: String(b.name), arguments: JSON.stringify(b.input ?? {}) }
    case 'tool_result':
      return withCache(
        {
          type: 'tool_result',
          toolCallId: String(b.tool_use_id),
          content: resultContent(b.content),
          ...(b.is_error === true ? { isError: true } : {}),
        },
        b.cache_control,
      )
    case 'thinking':
      return { type: 'reasoning', text: String(b.thinking ?? ''), ...fromSignature(b.signature || undefined) }
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: String(b.data ?? ''), origin: 'anthropic-messages' }
    default:
      return undefined
  }
}

function toolChoice(c: MessagesRequestExtras['tool_choice']): CToolChoice | undefined {
  if (!c) return undefined
  if (c.type === 'any') return 'required'
  if (c.type === 'tool') return { name: String(c.name) }
  if (c.type === 'none') return 'none'
  return 'auto'
}

function reasoning(b: MessagesRequestExtras): CRequest['reasoning'] {
  const t = b.thinking
  if (t?.type === 'enabled') return { budgetTokens: t.budget_tokens }
  if (t?.type !== 'adaptive') return undefined
  const e = effortFrom(b.output_config?.effort)
  return e === 'none' ? undefined : { effort: e }
}

const systemParts = (s: unknown): TextPart[] | undefined => {
  if (typeof s === 'string') return s ? [{ type: 'text', text: s }] : undefined
  if (!Array.isArray(s)) return undefined
  const parts = (s as (MessagesBlockWire | undefined)[]).flatMap((b): TextPart[] =>
    b?.type === 'text' ? [withCache({ type: 'text', text: String(b.text ?? '') }, b.cache_control)] : [],
  )
  return parts.length ? parts : undefined
}

/** Custom (client) tools only; Anthropic's server tools have a versioned `type`. */
const clientTool = (t: MessagesToolWire): boolean => t.input_schema !== undefined || t.type === undefined || t.type === 'custom'

export function decodeMessages(body: MessagesRequest): CRequest {
  const messages: CMessage[] = body.messages.map((m) => ({
    role: m.role,
    content:
      typeof m.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : (m.content as MessagesBlockWire[]).map(part).filter((p): p is CPart => p !== undefined),
  }))
  const b = body as Omit<MessagesRequest, 'tools' | 'tool_choice' | 'thinking' | 'metadata'> & MessagesRequestExtras
  const format = b.output_config?.format ?? b.output_format
  return {
    system: systemParts(body.system),
    messages,
    tools: b.tools?.filter(clientTool).map(
      (t): CTool =>
        withCache(
          {
            name: String(t.name),
            description: t.description,
            parameters: t.input_schema ?? { type: 'object' },
            ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
          },
          t.cache_control,
        ),
    ),
    toolChoice: toolChoice(b.tool_choice),
    parallelToolCalls: b.tool_choice?.disable_parallel_tool_use === true ? false : undefined,
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    topP: body.top_p,
    topK: body.top_k,
    stop: body.stop_sequences,
    reasoning: reasoning(b),
    jsonSchema: format?.type === 'json_schema' && format.schema ? { schema: format.schema, strict: true } : undefined,
    user: typeof b.metadata?.user_id === 'string' ? b.metadata.user_id : undefined,
    stream: body.stream === true,
  }
}

/** Characters of prompt text, for the reservation estimate and count_tokens. */
export const messagesPromptChars = (body: object): number => promptChars(body as Record<string, unknown>, ['messages', 'system', 'tools'])
