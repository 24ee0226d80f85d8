// Canonical token usage, the one shape billing reads whatever protocol reported it.
// inputTokens excludes cache reads and writes, so no token is priced twice.

export interface Usage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  reasoningTokens: number
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }

const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0)

/** OpenAI chat usage: prompt_tokens includes cached tokens; completion includes reasoning. */
export function fromOpenAiChatUsage(u: unknown): Usage | undefined {
  if (u === null || typeof u !== 'object') return undefined
  const o = u as Record<string, any>
  if (typeof o.prompt_tokens !== 'number' && typeof o.completion_tokens !== 'number') return undefined
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

export const totalPromptTokens = (u: Usage): number => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens
