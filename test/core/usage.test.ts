// Each protocol's usage object → the canonical usage billing reads: cached tokens never priced
// twice, reasoning counted within the output, and anything not a count read as nothing.
import { describe, expect, test } from 'bun:test'
import { fromAnthropicUsage, fromOpenAiChatUsage, fromResponsesUsage, usageTokens } from '../../src/core/usage.ts'

describe('usage readers', () => {
  test('chat: cached tokens leave the input; reasoning is reported within the output', () => {
    const u = fromOpenAiChatUsage({
      prompt_tokens: 100,
      completion_tokens: 40,
      prompt_tokens_details: { cached_tokens: 30 },
      completion_tokens_details: { reasoning_tokens: 12 },
    })
    expect(u).toEqual({ inputTokens: 70, outputTokens: 40, cacheReadTokens: 30, cacheWriteTokens: 0, reasoningTokens: 12 })
    expect(usageTokens(u!)).toBe(140)
  })

  test('responses: the same split; a cached count above the input never makes the input negative', () => {
    expect(fromResponsesUsage({ input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 50 } })).toEqual({
      inputTokens: 0,
      outputTokens: 5,
      cacheReadTokens: 10,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    })
  })

  test('anthropic: input already excludes cache reads and writes', () => {
    const u = fromAnthropicUsage({ input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 })
    expect(u).toEqual({ inputTokens: 5, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 20, reasoningTokens: 0 })
    expect(usageTokens(u!)).toBe(132)
  })

  test('no count, or counts that are not finite positive numbers, read as nothing or zero', () => {
    for (const bad of [undefined, null, 7, 'x', {}, { cached: 1 }]) {
      expect(fromOpenAiChatUsage(bad)).toBeUndefined()
      expect(fromAnthropicUsage(bad)).toBeUndefined()
      expect(fromResponsesUsage(bad)).toBeUndefined()
    }
    expect(fromAnthropicUsage({ input_tokens: -3, output_tokens: Number.NaN, cache_read_input_tokens: '9' })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    })
    expect(fromOpenAiChatUsage({ prompt_tokens: 2.9, completion_tokens: Number.POSITIVE_INFINITY })?.inputTokens).toBe(2)
  })
})
