// The reservation taken at entry (docs/api.md "Reservations"): a conservative, bounded estimate.
// What it covers and the overdraft it leaves: docs/operations.md "Overdraft".
import type { Usage } from '../core/usage.ts'
import { costMicros, type Pricing } from './pricing.ts'

/**
 * Prompt tokens from the request's text size. Real tokenizers average ~4 characters per token
 * on English and code; dividing by 3 over-reserves slightly, which is the safe side.
 */
export function estimatePromptTokens(promptChars: number): number {
  return Math.max(1, Math.ceil(promptChars / 3))
}

export interface OutputCap {
  /** max_tokens / max_completion_tokens / max_output_tokens, when the caller set one. */
  requested: number | undefined
  /** Number of choices generated (chat `n`). */
  choices: number
  defaultCap: number
  contextWindow: number
}

/** Requested cap, else the configured default — never the whole context window. */
export function estimateOutputTokens(promptTokens: number, cap: OutputCap): number {
  const room = Math.max(1, cap.contextWindow - promptTokens)
  return Math.min(cap.requested ?? cap.defaultCap, room) * Math.max(1, cap.choices)
}

export function estimateUsage(promptChars: number, cap: OutputCap): Usage {
  const inputTokens = estimatePromptTokens(promptChars)
  return { inputTokens, outputTokens: estimateOutputTokens(inputTokens, cap), cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }
}

/** Tokens of text already delivered to a client that went away (≈4 chars per token, at least 1). */
export const estimateDeliveredTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4))

/**
 * Micro-USD admission reserves for an estimate. Reasoning is part of the output tokens (every
 * upstream counts it there, under the same cap); input is priced at the dearest input rate, as
 * an upstream may bill every prompt token as a cache write (Anthropic: 1.25× input).
 */
export function reservationMicros(estimate: Usage, p: Pricing): bigint {
  const input = p.input ?? 0n
  const dearest = p.cacheWrite !== null && p.cacheWrite > input ? p.cacheWrite : input
  return costMicros(estimate, { ...p, input: dearest })
}
