// Chat stream served by an OpenAI-chat upstream: upstream frames are forwarded as they arrive,
// the model member rewritten to the public slug. Each chunk comes parsed once by the upstream's
// decoder (providers/openai-chat/wire.ts), which also says what the stream used and delivered.
// The client's stream ends with the upstream's usage chunk, one chunk carrying `svc`, then
// `data: [DONE]` (docs/api.md "Chat completions"). A failure ends it with exactly one error frame
// and no [DONE] (docs/api.md "Streams that fail").
//
// Upstream identity never reaches a client (docs/api.md "Upstream identity";
// docs/security.md "Chat pass-through"): the upstream's model name becomes the public slug, and
// a chunk or completion carries only the members of OpenAI's own shape. Everything else an
// upstream adds — OpenRouter's `provider`, Groq's `x_groq` with its request id, Azure's
// `prompt_filter_results`/`content_filter_results`, `native_finish_reason` — is dropped.
// The message/delta inside a choice is the model's output and passes as sent.
import type { FrameTee } from '../../core/frames.ts'
import type { ChatChunkWire } from '../../providers/openai-chat/wire.ts'
import { chatStreamError } from './error.ts'

const TOP_MEMBERS = new Set(['id', 'object', 'created', 'model', 'choices', 'usage', 'service_tier', 'system_fingerprint', 'obfuscation'])
const CHOICE_MEMBERS = new Set(['index', 'delta', 'message', 'finish_reason', 'logprobs'])

function onlyOpenAiMembers(parsed: Record<string, unknown>): boolean {
  for (const k in parsed) if (!TOP_MEMBERS.has(k)) return false
  const choices = parsed.choices
  if (Array.isArray(choices))
    for (const c of choices) if (c && typeof c === 'object') for (const k in c) if (!CHOICE_MEMBERS.has(k)) return false
  return true
}

function keep(value: Record<string, unknown>, allowed: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k in value) if (allowed.has(k)) out[k] = value[k]
  return out
}

/** The model tokens of one upstream name: a stream's chunks all name the same model, so a tee builds them once. */
export interface ModelTokens {
  upstream: string | undefined
  token: string
  replacement: string
}

const newTokens = (): ModelTokens => ({ upstream: undefined, token: '', replacement: '' })

/**
 * Rewrites one serialized chunk/completion. Fast path (the common case): only OpenAI's members,
 * so splice the exact `"model":"<upstream>"` token and forward the bytes otherwise untouched.
 * Slow path, when the upstream serialized the member differently or added members of its own:
 * re-serialize the parsed object with the allowed members only.
 */
export function publicJson(raw: string, parsed: Record<string, unknown>, slug: string, tokens: ModelTokens = newTokens()): string {
  const clean = onlyOpenAiMembers(parsed)
  const model = parsed.model
  if (clean) {
    if (typeof model !== 'string' || model === slug) return raw
    if (tokens.upstream !== model) {
      tokens.upstream = model
      tokens.token = `"model":${JSON.stringify(model)}`
      tokens.replacement = `"model":${JSON.stringify(slug)}`
    }
    const token = tokens.token
    const at = raw.indexOf(token)
    if (at !== -1 && raw.indexOf(token, at + token.length) === -1)
      return `${raw.slice(0, at)}${tokens.replacement}${raw.slice(at + token.length)}`
  }
  const copy = keep(parsed, TOP_MEMBERS)
  if (Array.isArray(copy.choices))
    copy.choices = copy.choices.map((c) => (c && typeof c === 'object' ? keep(c as Record<string, unknown>, CHOICE_MEMBERS) : c))
  if ('model' in copy) copy.model = slug
  return JSON.stringify(copy)
}

export function chatTee(slug: string): FrameTee<ChatChunkWire> {
  let lastId = ''
  let lastCreated = 0
  const tokens = newTokens()
  return {
    push(ev, chunk) {
      if (typeof chunk.id === 'string') {
        lastId = chunk.id
        lastCreated = chunk.created ?? lastCreated
      }
      return `data: ${publicJson(ev.data, chunk as Record<string, unknown>, slug, tokens)}\n\n`
    },
    close: (svc) =>
      `data: {"id":${JSON.stringify(lastId)},"object":"chat.completion.chunk","created":${lastCreated},"model":${JSON.stringify(slug)},"choices":[],"svc":${svc}}\n\ndata: [DONE]\n\n`,
    error: (err) => `data: ${chatStreamError(err)}\n\n`,
  }
}
