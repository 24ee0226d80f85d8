// Canonical request → Bedrock Converse body (docs/translation.md "Bedrock Converse"). Text,
// inline images and documents, tool calls and results, and Converse's own reasoning go across;
// cache hints become `cachePoint` blocks after the part they mark. Converse has no
// mid-conversation instructions, so those join `system`; an image by URL cannot be sent (Converse
// takes bytes) and is left out. Turns of one role merge, tool results first (Converse's rule).
import type { CacheHint, CMessage, CPart, CRequest, CTool, CToolChoice, ImagePart, TextPart } from '../../core/canonical.ts'
import { parseDataUrl } from '../../core/media.ts'
import { sha256Hex } from '../../lib/ids.ts'
import { safeJsonObject } from '../../lib/json.ts'

type Block = Record<string, unknown>

const CACHE_POINT: Block = { cachePoint: { type: 'default' } }
const cached = (b: Block | undefined, c: CacheHint | undefined): Block[] => (b ? (c ? [b, CACHE_POINT] : [b]) : [])

/** Converse tool ids match ^[a-zA-Z0-9_-]+$; another vendor's id is mapped deterministically, so a call and its result still pair up. */
export function converseToolId(id: string): string {
  if (/^[a-zA-Z0-9_-]+$/.test(id)) return id
  return `${id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 40)}_${sha256Hex(id).slice(0, 8)}`
}

const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' }
const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/html': 'html',
  'text/markdown': 'md',
}

function image(p: ImagePart): Block | undefined {
  const inline = p.data !== undefined ? { mediaType: p.mediaType ?? 'image/png', data: p.data } : parseDataUrl(p.url)
  const format = inline && IMAGE_FORMATS[inline.mediaType]
  return format ? { image: { format, source: { bytes: inline.data } } } : undefined
}

const text = (p: TextPart): Block | undefined => (p.text ? { text: p.text } : undefined)

function blocks(p: CPart): Block[] {
  switch (p.type) {
    case 'text':
      return cached(text(p), p.cache)
    case 'image':
      return cached(image(p), p.cache)
    case 'file': {
      const inline = p.data !== undefined ? { mediaType: p.mediaType ?? 'application/pdf', data: p.data } : parseDataUrl(p.url)
      const format = inline && DOCUMENT_FORMATS[inline.mediaType]
      // A document's name may hold only letters, digits, spaces, hyphens, parentheses and brackets.
      const name = (p.filename ?? 'document').replace(/[^a-zA-Z0-9 ()[\]-]/g, ' ').trim() || 'document'
      return cached(format ? { document: { format, name, source: { bytes: inline.data } } } : undefined, p.cache)
    }
    case 'tool_call':
      return [{ toolUse: { toolUseId: converseToolId(p.id), name: p.name, input: safeJsonObject(p.arguments) } }]
    case 'tool_result': {
      const content = p.content.flatMap((c) => (c.type === 'text' ? (c.text ? [{ text: c.text }] : []) : [image(c)].filter(Boolean)))
      const result = {
        toolUseId: converseToolId(p.toolCallId),
        content: content.length ? content : [{ text: '' }],
        status: p.isError ? 'error' : 'success',
      }
      return cached({ toolResult: result }, p.cache)
    }
    case 'reasoning':
      // Only Converse's own reasoning, with its proof, goes back.
      if (p.origin !== 'bedrock-converse') return []
      if (p.redacted !== undefined) return [{ reasoningContent: { redactedContent: p.redacted } }]
      return p.signature ? [{ reasoningContent: { reasoningText: { text: p.text, signature: p.signature } } }] : []
  }
}

type Turn = { role: 'user' | 'assistant'; content: Block[] }

export function converseMessages(messages: CMessage[]): { messages: Turn[]; system: TextPart[] } {
  const out: Turn[] = []
  const system: TextPart[] = []
  for (const m of messages) {
    if (m.role === 'system') {
      system.push(...m.content.filter((p) => p.text))
      continue
    }
    const content = m.content.flatMap(blocks)
    if (content.length === 0) continue
    const last = out.at(-1)
    if (last && last.role === m.role) last.content.push(...content)
    else out.push({ role: m.role, content })
  }
  const isResult = (b: Block) => Number('toolResult' in b)
  for (const m of out) if (m.role === 'user') m.content.sort((a, b) => isResult(b) - isResult(a))
  return { messages: out, system }
}

function toolChoice(c: CToolChoice | undefined): Block | undefined {
  if (c === 'required') return { any: {} }
  if (typeof c === 'object') return { tool: { name: c.name } }
  return c === 'auto' ? { auto: {} } : undefined // 'none': Converse has none; the model is left to choose
}

const tool = (t: CTool): Block[] =>
  cached(
    { toolSpec: { name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: { json: t.parameters } } },
    t.cache,
  )

export function converseBody(req: CRequest, _model: string, defaultMaxTokens: number): string {
  const { messages, system } = converseMessages(req.messages)
  const allSystem = [...(req.system ?? []), ...system].flatMap((p) => cached(text(p), p.cache))
  const tools = req.tools?.length ? req.tools : undefined
  const choice = tools && toolChoice(req.toolChoice)
  return JSON.stringify({
    messages,
    system: allSystem.length ? allSystem : undefined,
    inferenceConfig: {
      maxTokens: req.maxTokens ?? defaultMaxTokens,
      temperature: req.temperature,
      topP: req.topP,
      stopSequences: req.stop?.length ? req.stop : undefined,
    },
    toolConfig: tools ? { tools: tools.flatMap(tool), ...(choice ? { toolChoice: choice } : {}) } : undefined,
  })
}
