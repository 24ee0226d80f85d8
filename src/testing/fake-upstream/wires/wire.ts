// One upstream wire of the fake (docs/testing.md "Scripting the fake upstream"): which paths are
// its own, how a request names its model and asks for a stream (in its body, or in its path as
// Bedrock's and Vertex's do), and how an answer, a stream (SSE text or AWS event-stream bytes), a
// failed stream and an HTTP error look on it. A new wire is one more file beside these and one
// line in index.ts; the server, the scripts and the faults need no change.
import type { ScriptedError, ScriptedUsage } from '../reply.ts'

/** One answer, ready for any wire: what the reply scripted, or the echo. */
export interface Answer {
  id: string
  model: string
  text: string
  /** The text as the deltas a stream sends (a boundary where an error is scripted). */
  pieces: string[]
  toolCalls: { id: string; name: string; arguments: string }[]
  reasoning: string | undefined
  usage: ScriptedUsage | null
  /** Inputs to embed (embeddings only). */
  inputs: number
  dimensions: number
  /** The request's own asks that change the answer: chat's include_usage, embeddings' base64. */
  asks: { streamUsage: boolean; base64: boolean }
}

/** A stream frame (SSE text, or an AWS event-stream message); `chars` counts the answer text it carries (for errorAfterChars). */
export interface Frame {
  data: string | Uint8Array
  chars?: number
}

export interface RequestView {
  model: string
  stream: boolean
  /** The last user message's text (the echo answers it). */
  prompt: string
  /** Everything the caller sent as input, for the default input token count. */
  inputText: string
  /** How many inputs to answer (embeddings; 1 elsewhere). */
  inputs?: number
}

export interface Wire {
  name: string
  /** Where it answers, after any prefix, as the CLI's help prints it (`/v1/chat/completions`). */
  route: string
  /** Whether a request's path is this wire's (any prefix before what the wire names). */
  matches(path: string): boolean
  /** The request's model, stream ask and input, from its body and (cloud wires) its path. */
  read(body: any, path: string): RequestView
  json(a: Answer): unknown
  frames(a: Answer): Frame[]
  /** A stream's content type; default `text/event-stream`. */
  streamType?: string
  /** The event that ends a stream already under way with an error; `status` names its class (429: throttling). */
  streamError(message: string, status: number | undefined): string | Uint8Array
  /** An HTTP error's body, in the wire's envelope. */
  errorBody(e: ScriptedError): unknown
  /** Headers an HTTP error carries besides Retry-After (Bedrock's `x-amzn-errortype`). */
  errorHeaders?(e: ScriptedError): Record<string, string>
  /** Its requests are forms (an OAuth token endpoint), not JSON; only scripts named for its model apply, never `*`'s. */
  form?: boolean
}

/** A wire that answers on every path ending in `suffix`. */
export const endingIn = (suffix: string) => ({ route: `/v1${suffix}`, matches: (path: string) => path.endsWith(suffix) })

/** A path segment as the caller sent it, percent-encoding undone (`us.anthropic.claude-…-v1%3A0` → `…-v1:0`). */
export function segment(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

export const sseEvent = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
export const sseData = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((p: { text?: unknown } | null) => (typeof p?.text === 'string' ? p.text : '')).join(' ')
}

/** The last user turn of chat `messages` or responses `input` (a string, or items with roles). */
export function lastUserText(turns: unknown): string {
  if (typeof turns === 'string') return turns
  if (!Array.isArray(turns)) return ''
  const last = [...turns].reverse().find((m: { role?: unknown } | null) => m?.role === 'user')
  return textOf(last?.content)
}

export const stringOr = (v: unknown, or: string) => (typeof v === 'string' ? v : or)

/** A message for an HTTP error: the scripted one, or what the status means. */
export function errorMessage(e: ScriptedError): string {
  if (e.message) return e.message
  if (e.status === 429) return 'Rate limit reached (fake upstream).'
  if (e.status === 529) return 'Overloaded (fake upstream).'
  return `Fake upstream error ${e.status}.`
}
