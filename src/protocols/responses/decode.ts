// Responses body → canonical request. Stateless: history comes in `input` (messages, earlier
// output items, function_call_output); `instructions` and leading system / developer items are
// the system text, later ones stay at their position; reasoning items are unwrapped
// (reasoning-carrier) so each proof returns to its own vendor.
import { argsText, type CPart, type CRequest, type CTool, type CToolChoice, type ImagePart, type TextPart } from '../../core/canonical.ts'
import { conversation } from '../../core/conversation.ts'
import { effortFrom } from '../../core/effort.ts'
import { fromUrl } from '../../core/media.ts'
import { promptChars } from '../../core/prompt-size.ts'
import { fromEncryptedContent } from '../../core/reasoning-carrier.ts'
import type { ResponsesInputItemWire, ResponsesPartWire, ResponsesRequest, ResponsesRequestExtras } from './schema.ts'

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** Summary parts join with a newline, as in a response's JSON. */
const reasoningText = (item: ResponsesInputItemWire): string =>
  list(item.summary)
    .map((s) => String((s as { text?: unknown } | null)?.text ?? ''))
    .join('\n')

/** An input_image by URL (http or data); a file_id names a file stored at one vendor and cannot cross. */
function image(p: ResponsesPartWire): ImagePart | undefined {
  if (typeof p.image_url !== 'string' || !p.image_url) return undefined
  return { type: 'image', ...fromUrl(p.image_url), ...(p.detail && p.detail !== 'auto' ? { detail: String(p.detail) } : {}) }
}

function contentPart(p: ResponsesPartWire | undefined): CPart | undefined {
  switch (p?.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: String(p.text ?? '') }
    case 'refusal':
      return { type: 'text', text: String(p.refusal ?? ''), refusal: true }
    case 'input_image':
      return image(p)
    case 'input_file':
      if (typeof p.file_data === 'string')
        return { type: 'file', ...fromUrl(p.file_data), ...(p.filename ? { filename: String(p.filename) } : {}) }
      if (typeof p.file_url === 'string') return { type: 'file', url: p.file_url, ...(p.filename ? { filename: String(p.filename) } : {}) }
      return undefined
    default:
      return undefined
  }
}

const contentParts = (content: unknown): CPart[] =>
  typeof content === 'string'
    ? content
      ? [{ type: 'text', text: content }]
      : []
    : Array.isArray(content)
      ? (content as (ResponsesPartWire | undefined)[]).map(contentPart).filter((p): p is CPart => p !== undefined)
      : []

function output(o: unknown): (TextPart | ImagePart)[] {
  if (typeof o === 'string') return o ? [{ type: 'text', text: o }] : []
  return contentParts(o).filter((p): p is TextPart | ImagePart => p.type === 'text' || p.type === 'image')
}

function toolChoice(tc: unknown): CToolChoice | undefined {
  if (tc === 'auto' || tc === 'none' || tc === 'required') return tc
  const named = tc as { type?: unknown; name?: unknown } | null | undefined
  return named?.type === 'function' && named.name ? { name: String(named.name) } : undefined
}

function reasoning(r: ResponsesRequest['reasoning']): CRequest['reasoning'] {
  if (!r) return undefined
  const e = effortFrom(r.effort ?? undefined)
  return e === 'none' ? undefined : { effort: e }
}

export function decodeResponses(body: ResponsesRequest): CRequest {
  const c = conversation()
  if (body.instructions) c.instruct([{ type: 'text', text: body.instructions }])
  const push = c.turn
  const items: ResponsesInputItemWire[] =
    typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input as ResponsesInputItemWire[])
  for (const item of items) {
    const type = item.type ?? (item.role ? 'message' : undefined)
    if (type === 'message') {
      if (item.role === 'system' || item.role === 'developer')
        c.instruct(contentParts(item.content).filter((p): p is TextPart => p.type === 'text'))
      else push(item.role === 'assistant' ? 'assistant' : 'user', contentParts(item.content))
    } else if (type === 'function_call')
      push('assistant', [
        { type: 'tool_call', id: String(item.call_id), name: String(item.name), arguments: argsText(String(item.arguments ?? '')) },
      ])
    else if (type === 'function_call_output')
      push('user', [{ type: 'tool_result', toolCallId: String(item.call_id), content: output(item.output) }])
    else if (type === 'reasoning') {
      push('assistant', [
        {
          type: 'reasoning',
          text: reasoningText(item),
          ...(item.id ? { id: String(item.id) } : {}),
          ...fromEncryptedContent(item.encrypted_content ?? undefined),
        },
      ])
    }
  }
  const b = body as Omit<ResponsesRequest, 'tools' | 'text'> & ResponsesRequestExtras
  const format = b.text?.format
  return {
    system: c.system.length ? c.system : undefined,
    messages: c.messages,
    tools: b.tools
      ?.filter((t) => t.type === 'function' && t.name)
      .map(
        (t): CTool => ({
          name: String(t.name),
          description: t.description ?? undefined,
          parameters: t.parameters ?? { type: 'object' },
          ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
        }),
      ),
    toolChoice: toolChoice(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls,
    maxTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    topK: undefined,
    stop: undefined,
    reasoning: reasoning(body.reasoning),
    jsonSchema:
      format?.type === 'json_object'
        ? 'json_object'
        : format?.type === 'json_schema'
          ? { name: format.name, schema: format.schema, strict: format.strict }
          : undefined,
    user: typeof b.user === 'string' ? b.user : typeof b.safety_identifier === 'string' ? b.safety_identifier : undefined,
    stream: body.stream === true,
  }
}

export const responsesPromptChars = (body: ResponsesRequest): number =>
  promptChars(body as Record<string, unknown>, ['input', 'instructions', 'tools'])
