import type { StopReason } from '../../core/canonical.ts'

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
