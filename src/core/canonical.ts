// The canonical model every protocol decodes to and every upstream adapter encodes from
// (STYLE: 3 inbound + k upstream adapters, not 3 × k). Parts keep what can cross protocols;
// `native` carries opaque upstream-specific data (signatures, encrypted reasoning) that is only
// sent back to an upstream of the same kind.
import type { GatewayProtocol } from './gateway.ts'
import type { Usage } from './usage.ts'

export type CPart =
  | { type: 'text'; text: string }
  | { type: 'image'; url?: string; mediaType?: string; data?: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_result'; toolCallId: string; content: string; isError?: boolean }
  | { type: 'reasoning'; text: string; signature?: string; encrypted?: string; redacted?: string; origin?: GatewayProtocol; id?: string }

export interface CMessage {
  role: 'user' | 'assistant'
  content: CPart[]
}

export interface CTool {
  name: string
  description?: string
  parameters: Record<string, unknown>
}

export type CToolChoice = 'auto' | 'none' | 'required' | { name: string }

export type StopReason = 'end' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'content_filter' | 'refusal'

export interface CRequest {
  system: string | undefined
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
  reasoning: { effort?: 'low' | 'medium' | 'high'; budgetTokens?: number } | undefined
  /** JSON output requested (chat response_format / responses text.format). */
  jsonSchema: { name?: string; schema?: Record<string, unknown>; strict?: boolean } | 'json_object' | undefined
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

export type CEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'reasoning_signature'; signature: string }
  | { type: 'reasoning_encrypted'; data: string; id?: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_args'; index: number; delta: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; stopReason: StopReason; stopSequence?: string }
  | { type: 'error'; message: string }

export const textOf = (parts: CPart[]): string =>
  parts
    .filter((p): p is Extract<CPart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('')
