// Canonical token usage, the one shape billing reads whatever protocol reported it.
// inputTokens excludes cache reads and writes, so no token is priced twice.

export interface Usage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  reasoningTokens: number
}

/**
 * Usage as an upstream reported it, and whether it is the call's final count: an Anthropic
 * `message_start` or a responses `response.created` usage is a placeholder (docs/api.md "What a
 * call is billed"), which billing never takes as the bill.
 */
export interface ReportedUsage {
  usage: Usage
  final: boolean
}

// Each protocol's usage object as the readers below read it: unchecked JSON, so every field may be
// missing or of another type (the readers count only finite positive numbers). The providers'
// wire types (src/providers/<u>/wire.ts) and the same-protocol pass-through read the same objects.

/** OpenAI chat-completions `usage`. */
export interface ChatUsageWire {
  prompt_tokens?: unknown
  completion_tokens?: unknown
  prompt_tokens_details?: { cached_tokens?: unknown } | null
  completion_tokens_details?: { reasoning_tokens?: unknown } | null
}

/** Anthropic messages `usage` (message_start's message, message_delta, the JSON answer). */
export interface AnthropicUsageWire {
  input_tokens?: unknown
  output_tokens?: unknown
  cache_read_input_tokens?: unknown
  cache_creation_input_tokens?: unknown
  output_tokens_details?: { thinking_tokens?: unknown } | null
}

/** OpenAI responses `usage`. */
export interface ResponsesUsageWire {
  input_tokens?: unknown
  output_tokens?: unknown
  input_tokens_details?: { cached_tokens?: unknown } | null
  output_tokens_details?: { reasoning_tokens?: unknown } | null
}

const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0)

/** The object a reader may read, or undefined for anything else (null, a number, a string). */
const object = <T>(u: unknown): T | undefined => (u === null || typeof u !== 'object' ? undefined : (u as T))

/** OpenAI chat usage: prompt_tokens includes cached tokens; completion includes reasoning. */
export function fromOpenAiChatUsage(u: unknown): Usage | undefined {
  const o = object<ChatUsageWire>(u)
  if (!o || (typeof o.prompt_tokens !== 'number' && typeof o.completion_tokens !== 'number')) return undefined
  const cached = int(o.prompt_tokens_details?.cached_tokens)
  const prompt = int(o.prompt_tokens)
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: int(o.completion_tokens),
    cacheReadTokens: Math.min(cached, prompt),
    cacheWriteTokens: 0,
    reasoningTokens: int(o.completion_tokens_details?.reasoning_tokens),
  }
}

/**
 * Anthropic usage: input_tokens already excludes cache reads and writes; thinking tokens are
 * part of output_tokens (and counted in output_tokens_details.thinking_tokens when reported).
 */
export function fromAnthropicUsage(u: unknown): Usage | undefined {
  const o = object<AnthropicUsageWire>(u)
  if (!o || (typeof o.input_tokens !== 'number' && typeof o.output_tokens !== 'number')) return undefined
  return {
    inputTokens: int(o.input_tokens),
    outputTokens: int(o.output_tokens),
    cacheReadTokens: int(o.cache_read_input_tokens),
    cacheWriteTokens: int(o.cache_creation_input_tokens),
    reasoningTokens: int(o.output_tokens_details?.thinking_tokens),
  }
}

/** OpenAI responses usage: input_tokens includes cached tokens; output includes reasoning. */
export function fromResponsesUsage(u: unknown): Usage | undefined {
  const o = object<ResponsesUsageWire>(u)
  if (!o || (typeof o.input_tokens !== 'number' && typeof o.output_tokens !== 'number')) return undefined
  const cached = int(o.input_tokens_details?.cached_tokens)
  const input = int(o.input_tokens)
  return {
    inputTokens: Math.max(0, input - cached),
    outputTokens: int(o.output_tokens),
    cacheReadTokens: Math.min(cached, input),
    cacheWriteTokens: 0,
    reasoningTokens: int(o.output_tokens_details?.reasoning_tokens),
  }
}

/** Tokens a call counts against a key's tpm (docs/api.md "Key settings"): every input and output token; reasoning is part of the output. */
export const usageTokens = (u: Usage): number => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens
