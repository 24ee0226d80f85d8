// Stop reasons across protocols: total mappers with explicit defaults (docs/architecture.md "Code conventions").
import type { StopReason } from './canonical.ts'

export function fromAnthropicStop(reason: unknown): StopReason {
  switch (reason) {
    case 'max_tokens':
      return 'max_tokens'
    case 'tool_use':
      return 'tool_use'
    case 'stop_sequence':
      return 'stop_sequence'
    case 'refusal':
      return 'refusal'
    default:
      return 'end' // end_turn, pause_turn, model_context_window_exceeded
  }
}

export function toAnthropicStop(reason: StopReason): string {
  switch (reason) {
    case 'max_tokens':
      return 'max_tokens'
    case 'tool_use':
      return 'tool_use'
    case 'stop_sequence':
      return 'stop_sequence'
    case 'refusal':
    case 'content_filter':
      return 'refusal'
    default:
      return 'end_turn'
  }
}

/** OpenAI chat finish_reason ↔ canonical stop reason (total, with explicit defaults). */
export function fromChatFinish(reason: unknown, hasToolCalls: boolean): StopReason {
  if (hasToolCalls) return 'tool_use' // forced tool calls arrive with "stop"
  switch (reason) {
    case 'length':
      return 'max_tokens'
    case 'tool_calls':
    case 'function_call':
      return 'tool_use'
    case 'content_filter':
      return 'content_filter'
    default:
      return 'end'
  }
}

export function toChatFinish(reason: StopReason): string {
  switch (reason) {
    case 'max_tokens':
      return 'length'
    case 'tool_use':
      return 'tool_calls'
    case 'content_filter':
    case 'refusal':
      return 'content_filter'
    default:
      return 'stop'
  }
}

/**
 * Bedrock Converse stopReason → canonical stop reason: Anthropic's names, plus Bedrock's own
 * filters (a guardrail, the model's content filter).
 */
export const fromConverseStop = (reason: unknown): StopReason =>
  reason === 'guardrail_intervened' || reason === 'content_filtered' ? 'content_filter' : fromAnthropicStop(reason)
