// Canonical request → Anthropic messages body. Thinking blocks go back only when they came from
// an Anthropic upstream with their proof (signature or redacted data); tool arguments cross as
// JSON text → `input` objects; cache hints become `cache_control`; mid-conversation instructions
// become system messages where Anthropic's placement rules allow them.
import type { CacheHint, CMessage, CPart, CRequest, CTool, CToolChoice, ImagePart, TextPart } from '../../core/canonical.ts'
import { parseDataUrl } from '../../core/media.ts'
import { sha256Hex } from '../../lib/ids.ts'
import { safeJsonObject } from '../../lib/json.ts'

/** Thinking budget per effort level (docs/translation.md); Anthropic's minimum is 1,024. */
export const EFFORT_BUDGET = { low: 1_024, medium: 4_096, high: 16_384 } as const

type Block = Record<string, unknown>

const cacheControl = (c: CacheHint | undefined) => (c ? { cache_control: { type: 'ephemeral', ...(c.ttl ? { ttl: c.ttl } : {}) } } : {})

/**
 * Anthropic tool ids must match ^[a-zA-Z0-9_-]+$. Other vendors' ids (e.g. "functions.get:0")
 * are mapped deterministically, so a tool_use and its tool_result still pair up.
 */
export function anthropicToolId(id: string): string {
  if (/^[a-zA-Z0-9_-]+$/.test(id)) return id
  return `${id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 40)}_${sha256Hex(id).slice(0, 8)}`
}

function imageBlock(p: ImagePart): Block {
  const inline = p.data !== undefined ? { mediaType: p.mediaType ?? 'image/png', data: p.data } : parseDataUrl(p.url)
  const source = inline ? { type: 'base64', media_type: inline.mediaType, data: inline.data } : { type: 'url', url: p.url ?? '' }
  return { type: 'image', source, ...cacheControl(p.cache) }
}

const textBlock = (p: TextPart): Block | undefined => (p.text ? { type: 'text', text: p.text, ...cacheControl(p.cache) } : undefined)

function block(p: CPart): Block | undefined {
  switch (p.type) {
    case 'text':
      return textBlock(p)
    case 'image':
      return imageBlock(p)
    case 'file': {
      const inline = p.data !== undefined ? { mediaType: p.mediaType ?? 'application/pdf', data: p.data } : parseDataUrl(p.url)
      const source = !inline
        ? { type: 'url', url: p.url ?? '' }
        : inline.mediaType === 'text/plain'
          ? { type: 'text', media_type: 'text/plain', data: Buffer.from(inline.data, 'base64').toString('utf8') }
          : { type: 'base64', media_type: inline.mediaType, data: inline.data }
      return { type: 'document', source, ...(p.filename ? { title: p.filename } : {}), ...cacheControl(p.cache) }
    }
    case 'tool_call':
      return { type: 'tool_use', id: anthropicToolId(p.id), name: p.name, input: safeJsonObject(p.arguments) }
    case 'tool_result': {
      const parts = p.content.flatMap((c) => (c.type === 'text' ? (c.text ? [{ type: 'text', text: c.text }] : []) : [imageBlock(c)]))
      const content = parts.every((b) => b.type === 'text') ? parts.map((b) => b.text).join('') : parts
      return {
        type: 'tool_result',
        tool_use_id: anthropicToolId(p.toolCallId),
        content,
        ...(p.isError ? { is_error: true } : {}),
        ...cacheControl(p.cache),
      }
    }
    case 'reasoning':
      // Another vendor's reasoning, or thinking without its proof, would be refused.
      if (p.origin !== 'anthropic-messages') return undefined
      if (p.redacted !== undefined) return { type: 'redacted_thinking', data: p.redacted }
      return p.signature ? { type: 'thinking', thinking: p.text, signature: p.signature } : undefined
  }
}

type Turn = { role: 'user' | 'assistant'; content: Block[] }
/** A system message in `messages`: a string, or blocks when a cache breakpoint must be kept. */
type Instruction = { role: 'system'; content: unknown }

/**
 * Consecutive same-role turns merge; in a user turn, tool results come first (Anthropic's rule).
 * A system message keeps its place where Anthropic allows one — after a user turn, before an
 * assistant turn or last (docs/translation.md "Mid-conversation system messages"): one that
 * precedes every turn is hoisted into `system`, one elsewhere waits for the end of the next user
 * turn (so one between a tool call and its result follows the result), and one that no user turn
 * follows is hoisted too. Waiting instructions merge.
 */
export function anthropicMessages(messages: CMessage[]): { messages: (Turn | Instruction)[]; hoisted: TextPart[] } {
  const out: (Turn | Instruction)[] = []
  const hoisted: TextPart[] = []
  let held: TextPart[] = []
  const release = () => {
    if (held.length) out.push({ role: 'system', content: systemContent(held) })
    held = []
  }
  for (const m of messages) {
    if (m.role === 'system') {
      const parts = m.content.filter((p) => p.text)
      if (out.length) held.push(...parts)
      else hoisted.push(...parts)
      continue
    }
    const blocks = m.content.map(block).filter((b): b is Block => b !== undefined)
    if (blocks.length === 0) continue
    if (m.role === 'assistant' && out.at(-1)?.role === 'user') release()
    const last = out.at(-1)
    if (last && last.role === m.role) last.content.push(...blocks)
    else out.push({ role: m.role, content: blocks })
  }
  if (out.at(-1)?.role === 'user') release()
  else hoisted.push(...held)
  for (const m of out) if (m.role === 'user') m.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'))
  return { messages: out, hoisted }
}

function toolChoice(c: CToolChoice | undefined, parallel: boolean | undefined): Block | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {}
  if (c === 'none') return { type: 'none' }
  if (c === 'required') return { type: 'any', ...noParallel }
  if (typeof c === 'object') return { type: 'tool', name: c.name, ...noParallel }
  return c === 'auto' || parallel === false ? { type: 'auto', ...noParallel } : undefined
}

const tool = (t: CTool): Block => ({
  name: t.name,
  ...(t.description ? { description: t.description } : {}),
  input_schema: t.parameters,
  ...(t.strict ? { strict: true } : {}),
  ...cacheControl(t.cache),
})

/** System text: a plain string, or blocks when a cache breakpoint must be kept. */
function systemContent(system: TextPart[]): unknown {
  const parts = system.filter((p) => p.text)
  if (!parts.length) return undefined
  return parts.some((p) => p.cache) ? parts.map(textBlock) : parts.map((p) => p.text).join('\n\n')
}

/**
 * With thinking on, Anthropic refuses a tool-use turn whose assistant message does not start with
 * its (signed) thinking block — which a client of another protocol could not send back. Such a
 * turn is served without thinking rather than refused.
 */
function thinkingAllowed(messages: (Turn | Instruction)[]): boolean {
  const last = messages.findLast((m): m is Turn => m.role === 'assistant')
  if (!last?.content.some((b) => b.type === 'tool_use')) return true
  return last.content[0]?.type === 'thinking' || last.content[0]?.type === 'redacted_thinking'
}

export function anthropicBody(req: CRequest, model: string, defaultMaxTokens: number): string {
  return JSON.stringify(anthropicBodyObject(req, model, defaultMaxTokens))
}

/** The body as an object: the clouds' Anthropic wires (Bedrock, Vertex) send it with their own version and without some members. */
export function anthropicBodyObject(req: CRequest, model: string, defaultMaxTokens: number): Record<string, unknown> {
  const { messages, hoisted } = anthropicMessages(req.messages)
  const budget =
    req.reasoning && thinkingAllowed(messages)
      ? Math.max(1_024, req.reasoning.budgetTokens ?? EFFORT_BUDGET[req.reasoning.effort ?? 'medium'])
      : undefined
  const maxTokens = Math.max(req.maxTokens ?? defaultMaxTokens, budget !== undefined ? budget + 1 : 1)
  const tools = req.tools?.length ? req.tools : undefined
  const format =
    typeof req.jsonSchema === 'object' && req.jsonSchema.schema ? { type: 'json_schema', schema: req.jsonSchema.schema } : undefined
  return {
    model,
    max_tokens: maxTokens,
    system: systemContent([...(req.system ?? []), ...hoisted]),
    messages,
    stream: req.stream || undefined,
    // Extended thinking refuses temperature, top_p and top_k; Anthropic's temperature tops at 1.
    temperature: budget === undefined && req.temperature !== undefined ? Math.min(1, req.temperature) : undefined,
    top_p: budget === undefined ? req.topP : undefined,
    top_k: budget === undefined ? req.topK : undefined,
    stop_sequences: req.stop?.length ? req.stop : undefined,
    tools: tools?.map(tool),
    tool_choice: tools ? toolChoice(req.toolChoice, req.parallelToolCalls) : undefined,
    thinking: budget !== undefined ? { type: 'enabled', budget_tokens: budget } : undefined,
    output_config: format ? { format } : undefined,
    metadata: req.user ? { user_id: req.user } : undefined,
  }
}
