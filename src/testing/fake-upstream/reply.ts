// What a test scripts for one upstream call (docs/testing.md "Scripting the fake upstream"): the
// answer (text, tool calls, reasoning, usage or none), its pace, and how it fails. Every field is
// optional; an empty reply echoes the last user message, as the demo's model does.

export interface ScriptedToolCall {
  name: string
  /** The arguments object (sent as JSON text on the wires that carry text). */
  arguments?: unknown
  id?: string
}

/** Token counts the fake reports; absent members are 0. */
export interface ScriptedUsage {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
  reasoning?: number
}

export interface ScriptedError {
  /** 429, 500, 529 (Anthropic's "overloaded"), or any other status. */
  status: number
  /** Seconds, sent as `Retry-After` (and `retry-after-ms`). */
  retryAfter?: number
  message?: string
}

export interface Reply {
  /** The answer text; default "You said: <the last user message>". */
  text?: string
  toolCalls?: ScriptedToolCall[]
  reasoning?: string
  /** Reported usage; `null` reports none (the gateway then bills its estimate); default ≈ 4 characters a token. */
  usage?: ScriptedUsage | null
  /** Wait before the response headers, in ms. */
  latencyMs?: number
  /** Streams: wait after the headers before the first content frame; JSON: added to latencyMs. */
  firstTokenMs?: number
  /** Streams: wait between frames. */
  frameDelayMs?: number
  /** Answer with this HTTP error, in the wire's own error envelope. */
  error?: ScriptedError
  /** Streams: after this many characters of answer text (0: before any), an error event ends the stream. */
  errorAfterChars?: number
  /** The status class that error event names: 429 is a throttling (Bedrock's throttlingException, Anthropic's rate_limit_error); default a server failure. */
  errorEventStatus?: number
  /** Cut the connection after this many bytes of the body (stream or JSON). */
  cutAfterBytes?: number
  /** Never answer; the request stays open until the caller goes away. */
  hang?: boolean
  /** Embeddings: vector length (default 8). */
  dimensions?: number
}

/** What the fake read of a request, on any wire. */
export interface RecordedRequest {
  /** The wire the path names (`openai-chat`, `anthropic-messages`, `openai-responses`, `embeddings`, `bedrock-anthropic`, `bedrock-converse`, `vertex-anthropic`, `oauth-token`). */
  wire: string
  method: string
  /** The path as sent (still percent-encoded), without the query. */
  path: string
  /** The query's parameters (Azure's `api-version`). */
  query: Record<string, string>
  /** Every header, names in lower case: `authorization` carries a SigV4 signature or a bearer token. */
  headers: Record<string, string>
  /** The JSON body (a token request's form, as an object). */
  body: any
  model: string
  stream: boolean
  /** Date.now() on arrival. */
  at: number
}

/** A reply, or a function of the request that returns one. */
export type Script = Reply | ((req: RecordedRequest) => Reply)

/** Tokens as the fake counts them when a reply names no usage: about 4 characters each. */
export const tokensOf = (s: string) => Math.max(1, Math.ceil(s.length / 4))

/** Splits text into word-sized chunks, with a boundary at `cut` characters when given. */
export function chunks(text: string, cut?: number): string[] {
  const words = (s: string) => s.match(/\S+\s*|\s+/g) ?? []
  if (cut === undefined || cut >= text.length) return words(text)
  return [...words(text.slice(0, cut)), ...words(text.slice(cut))]
}
