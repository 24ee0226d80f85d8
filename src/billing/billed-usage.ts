// What a stream is billed (docs/api.md "What a call is billed"): the upstream's usage when it
// reported one; a completed stream without usage pays the reserved estimate; a stream cut short
// without usage (client gone, upstream failure) pays the prompt estimate plus the output it
// delivered — never zero, never the whole reservation.
import type { Usage } from '../core/usage.ts'
import { estimateDeliveredTokens } from './estimate.ts'
import type { UsageSource } from './outbox-record.ts'

/** How a stream ended, as far as billing cares (inference/stream.ts reports it). */
export interface StreamTally {
  end: string
  usage: Usage | undefined
  /** Whether any frame reached the client. */
  started: boolean
  deliveredChars: number
}

export function billedUsage(estimate: Usage, s: StreamTally): { usage: Usage; source: UsageSource } {
  if (s.usage) return { usage: s.usage, source: 'upstream' }
  if (s.end === 'completed') return { usage: estimate, source: 'none' }
  return {
    usage: { ...estimate, outputTokens: Math.min(estimate.outputTokens, s.started ? estimateDeliveredTokens(s.deliveredChars) : 0) },
    source: 'estimate',
  }
}
