// One upstream wire of the fake (docs/testing.md "Scripting the fake upstream"): how a request
// names its model and asks for a stream, and how an answer, a stream, a failed stream and an HTTP
// error look on it. A new wire (a cloud provider's) is one more file beside these and one line in
// index.ts; the server, the scripts and the faults need no change.
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

/** A stream frame; `chars` counts the answer text it carries (for errorAfterChars). */
export interface Frame {
  sse: string
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
  /** The path the wire answers on, after any prefix (`/v1/chat/completions`, `/anything/v1/messages`). */
  suffix: string
  read(body: any): RequestView
  json(a: Answer): unknown
  frames(a: Answer): Frame[]
  /** The event that ends a stream already under way with an error. */
  streamError(message: string): string
  /** An HTTP error's body, in the wire's envelope. */
  errorBody(e: ScriptedError): unknown
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
