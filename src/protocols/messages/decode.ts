// Anthropic messages body → canonical request.
import type { CMessage, CPart, CRequest, CToolChoice } from '../../core/canonical.ts'
import { fromSignature } from '../../core/reasoning-carrier.ts'
import type { MessagesRequest } from './schema.ts'

const text = (c: unknown): string => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((b: any) => (b?.type === 'text' ? b.text : '')).join('') : '')

function part(b: any): CPart | undefined {
  switch (b?.type) {
    case 'text':
      return { type: 'text', text: String(b.text ?? '') }
    case 'image':
      return b.source?.type === 'base64' ? { type: 'image', mediaType: b.source.media_type, data: b.source.data } : { type: 'image', url: b.source?.url }
    case 'tool_use':
      return { type: 'tool_call', id: String(b.id), name: String(b.name), arguments: JSON.stringify(b.input ?? {}) }
    case 'tool_result':
      return { type: 'tool_result', toolCallId: String(b.tool_use_id), content: text(b.content), isError: b.is_error === true || undefined }
    case 'thinking':
      return { type: 'reasoning', text: String(b.thinking ?? ''), ...fromSignature(b.signature) }
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: b.data, origin: 'anthropic-messages' }
    default:
      return undefined
  }
}

function toolChoice(c: any): CToolChoice | undefined {
  if (!c) return undefined
  if (c.type === 'any') return 'required'
  if (c.type === 'tool') return { name: String(c.name) }
  if (c.type === 'none') return 'none'
  return 'auto'
}

export function decodeMessages(body: MessagesRequest): CRequest {
  const messages: CMessage[] = body.messages.map((m) => ({
    role: m.role,
    content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content.map(part).filter((p): p is CPart => p !== undefined),
  }))
  const tools = body.tools as any[] | undefined
  return {
    system: body.system === undefined ? undefined : text(body.system),
    messages,
    tools: tools?.filter((t) => t.input_schema || !t.type || t.type === 'custom').map((t) => ({ name: t.name, description: t.description, parameters: t.input_schema ?? { type: 'object' } })),
    toolChoice: toolChoice(body.tool_choice),
    parallelToolCalls: (body.tool_choice as any)?.disable_parallel_tool_use === true ? false : undefined,
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    topP: body.top_p,
    topK: body.top_k,
    stop: body.stop_sequences,
    reasoning: body.thinking?.type === 'enabled' ? { budgetTokens: body.thinking.budget_tokens } : undefined,
    jsonSchema: undefined,
    stream: body.stream === true,
  }
}

/** Characters of prompt text, for the reservation estimate. */
export function messagesPromptChars(body: { messages: unknown[]; system?: unknown; tools?: unknown }): number {
  return JSON.stringify(body.messages).length + (body.system ? JSON.stringify(body.system).length : 0) + (body.tools ? JSON.stringify(body.tools).length : 0)
}
