// The canonical model every protocol decodes to and every upstream adapter encodes from
// (docs/translation.md "How": 3 inbound + k upstream adapters, not 3 × k). Parts keep what can cross protocols;
// opaque upstream-specific proofs (signatures, encrypted reasoning) carry their `origin` and are
// only sent back to an upstream of the same kind (see reasoning-carrier.ts).
import type { GatewayProtocol } from './gateway.ts'
import type { Usage } from './usage.ts'

/** A prompt-cache breakpoint (Anthropic `cache_control`; OpenRouter-style on chat parts). */
export interface CacheHint {
  ttl?: '5m' | '1h'
}

export type TextPart = { type: 'text'; text: string; cache?: CacheHint; refusal?: true }
/** `data` is base64 (with `mediaType`); otherwise `url` is an http(s) address. */
export type ImagePart = { type: 'image'; url?: string; mediaType?: string; data?: string; detail?: string; cache?: CacheHint }
/** A document (PDF, text): base64 `data` with `mediaType`, or a `url`. */
export type FilePart = { type: 'file'; url?: string; mediaType?: string; data?: string; filename?: string; cache?: CacheHint }
export type ToolCallPart = { type: 'tool_call'; id: string; name: string; arguments: string }
export type ToolResultPart = {
  type: 'tool_result'
  toolCallId: string
  content: (TextPart | ImagePart)[]
  isError?: boolean
  cache?: CacheHint
}
export type ReasoningPart = {
  type: 'reasoning'
  text: string
  signature?: string
  encrypted?: string
  redacted?: string
  origin?: GatewayProtocol
  id?: string
}

export type CPart = TextPart | ImagePart | FilePart | ToolCallPart | ToolResultPart | ReasoningPart

/** A conversation turn. */
export interface CTurn {
  role: 'user' | 'assistant'
  content: CPart[]
}

/**
 * An instruction given at this point of the conversation (Anthropic's mid-conversation `system`
 * message, a later chat `system` / `developer` message or responses input item): text only,
 * applying from here on (docs/translation.md "Mid-conversation system messages").
 */
export interface CSystemMessage {
  role: 'system'
  content: TextPart[]
}

export type CMessage = CTurn | CSystemMessage

export interface CTool {
  name: string
  description?: string
  parameters: Record<string, unknown>
  strict?: boolean
  cache?: CacheHint
}

export type CToolChoice = 'auto' | 'none' | 'required' | { name: string }

export type StopReason = 'end' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'content_filter' | 'refusal'

export type Effort = 'low' | 'medium' | 'high'

export interface CRequest {
  /** System text before the first turn, in order (leading chat/responses system and developer messages too). */
  system: TextPart[] | undefined
  messages: CMessage[]
  tools: CTool[] | undefined
  toolChoice: CToolChoice | undefined
  parallelToolCalls: boolean | undefined
  maxTokens: number | undefined
  temperature: number | undefined
  topP: number | undefined
  topK: number | undefined
  stop: string[] | undefined
  /** Reasoning request: an effort level and/or a token budget. */
  reasoning: { effort?: Effort; budgetTokens?: number } | undefined
  /** JSON output requested (chat response_format / responses text.format). */
  jsonSchema: { name?: string; schema?: Record<string, unknown>; strict?: boolean } | 'json_object' | undefined
  /** End-user identifier (chat `user`, messages `metadata.user_id`, responses `user`). */
  user?: string
  stream: boolean
}

export interface CResponse {
  /** The upstream's id (never shown to clients of the responses protocol). */
  id: string
  content: CPart[]
  stopReason: StopReason
  stopSequence: string | undefined
  usage: Usage | undefined
}

/**
 * Stream events. Parts are implicit: consecutive events of one kind extend the current part
 * (text, reasoning, one tool call's arguments); a different kind, or a `reasoning_start`,
 * begins the next one.
 */
export type CEvent =
  | { type: 'text'; text: string; refusal?: true }
  | { type: 'reasoning_start' }
  | { type: 'reasoning'; text: string }
  | { type: 'reasoning_signature'; signature: string }
  | { type: 'reasoning_encrypted'; data: string; id?: string }
  | { type: 'reasoning_redacted'; data: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_args'; index: number; delta: string }
  /** final: false for a placeholder count (Anthropic's message_start), never billed as the call's usage. */
  | { type: 'usage'; usage: Usage; final: boolean }
  | { type: 'finish'; stopReason: StopReason; stopSequence?: string }
  /** A failure the upstream sent in its stream; `status` classes it as an HTTP answer would (429: throttled). */
  | { type: 'error'; message: string; status?: number }

export const textOf = (parts: CPart[]): string =>
  parts
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('')

export const systemText = (req: Pick<CRequest, 'system'>): string | undefined =>
  req.system?.length ? req.system.map((p) => p.text).join('\n\n') : undefined

/** A tool result as plain text (for protocols whose tool results are strings). */
export const resultText = (p: ToolResultPart): string => textOf(p.content)

/** Tool arguments as JSON text: an empty stream of argument deltas means "no arguments". */
export const argsText = (args: string): string => (args.trim() === '' ? '{}' : args)
