// Anthropic messages body → canonical request (a translated route's; the same-protocol route
// passes the body on). cache_control becomes a cache hint; thinking signatures are unwrapped
// (reasoning-carrier) so each proof returns to its own vendor; a system message keeps its
// position. A block type this decoder does not know is refused, naming it: left out, its
// meaning would be lost without a word.
import type { CMessage, CPart, CRequest, CTool, CToolChoice, ImagePart, TextPart } from '../../core/canonical.ts'
import { cacheFrom, effortFrom } from '../../core/effort.ts'
import { GatewayError } from '../../core/errors.ts'
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

/**
 * Blocks of Anthropic's server tools (web search, code execution, MCP, …), their uploads and
 * search results: they belong to Anthropic and are left out (docs/translation.md).
 */
const anthropicOnly = (type: string): boolean =>
  type === 'server_tool_use' ||
  type === 'mcp_tool_use' ||
  type === 'container_upload' ||
  type === 'search_result' ||
  type.endsWith('_tool_result')

const unknownBlock = (type: unknown, path: string) =>
  new GatewayError(
    'VALIDATION_FAILED',
    `${path}: content block type ${JSON.stringify(type)} cannot be translated for this model's upstream`,
    {
      param: path,
      issues: [{ path, message: `unknown content block type ${JSON.stringify(type)}` }],
    },
  )

function part(b: MessagesBlockWire | undefined, path: string): CPart | undefined {
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
      if (typeof b?.type === 'string' && anthropicOnly(b.type)) return undefined
      throw unknownBlock(b?.type, `${path}.type`)
  }
}

function toolChoice(c: MessagesRequestExtras['tool_choice']): CToolChoice | undefined {
  if (!c) return undefined
  if (c.type === 'any') return 'required'
  if (c.type === 'tool') return { name: String(c.name) }
  if (c.type === 'none') return 'none'
  return 'auto'
}

/**
 * A budget, or an effort level: adaptive thinking or `output_config.effort` alone (which asks for
 * that effort with or without thinking); Anthropic's effort is high when not given.
 */
function reasoning(b: MessagesRequestExtras): CRequest['reasoning'] {
  const t = b.thinking
  if (t?.type === 'enabled') return { budgetTokens: t.budget_tokens }
  if (t?.type === 'disabled') return undefined
  const effort = b.output_config?.effort
  if (t?.type !== 'adaptive' && effort == null) return undefined
  const e = effortFrom(effort ?? 'high')
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

/** A message whose role the spoke checked (rolesIssue, schema.ts): user, assistant, or a placed system message. */
function message(m: MessagesRequest['messages'][number], i: number): CMessage {
  if (m.role === 'system') return { role: 'system', content: systemParts(m.content) ?? [] }
  const content =
    typeof m.content === 'string'
      ? [{ type: 'text' as const, text: m.content }]
      : (m.content as MessagesBlockWire[]).map((b, j) => part(b, `messages[${i}].content[${j}]`)).filter((p): p is CPart => p !== undefined)
  return { role: m.role === 'assistant' ? 'assistant' : 'user', content }
}

export function decodeMessages(body: MessagesRequest): CRequest {
  const messages = body.messages.map(message)
  const b = body as Omit<MessagesRequest, 'tools' | 'tool_choice' | 'thinking' | 'output_config' | 'metadata'> & MessagesRequestExtras
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
