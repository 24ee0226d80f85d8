// The one billing rule (docs/api.md "What a call is billed"): how a call ended, the usage the
// upstream reported and whether it was final, and what reached the client decide the usage
// billed and its source. Pure; every end of every call is settled through it.
import { type AbandonedEnd, type EndCause, type EndKind, endStatus, type Fault } from '../core/call-end.ts'
import type { ReportedUsage, Usage } from '../core/usage.ts'
import { estimateDeliveredTokens } from './estimate.ts'
import type { UsageSource } from './outbox-record.ts'

/** What is known of a call's answer when it ends. */
export interface CallTally {
  /** The latest usage the upstream reported, with its finality. */
  reported: ReportedUsage | undefined
  /** Whether any byte of an answer reached the client (a stream's first frame). */
  started: boolean
  /** Output characters the client received (text, reasoning, tool arguments). */
  deliveredChars: number
}

/** How billing sees an end: the call's own, or `abandoned` when its instance died and the lease expired. */
export type BilledEnd = { kind: Exclude<EndKind, 'upstream_failed'> | 'abandoned' } | { kind: 'upstream_failed'; afterFirstByte: boolean }

export const NOTHING_DELIVERED: CallTally = { reported: undefined, started: false, deliveredChars: 0 }

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }

export function billFor(estimate: Usage, end: BilledEnd, t: CallTally): { usage: Usage; source: UsageSource } {
  if (t.reported?.final) return { usage: t.reported.usage, source: 'upstream' }
  if (end.kind === 'completed') return { usage: estimate, source: 'none' }
  if (end.kind === 'refused' || (end.kind === 'upstream_failed' && !end.afterFirstByte)) return { usage: ZERO_USAGE, source: 'none' }
  return { usage: cutUsage(estimate, t), source: 'estimate' }
}

/** How a call is settled: its usage billed and their source, and its request log's status, code and gateway. */
export interface Outcome {
  status: number
  errorCode: string | null
  /** Whose failure ended the call (core/call-end.ts faultOf); what the reports count as an error. */
  fault: Fault | null
  gateway: string | null
  usage: Usage
  usageSource: UsageSource
}

/** The outcome of a call that ended so: the billing rule's usage, the log's status and code for the end (core/call-end.ts). */
export function outcomeFor(estimate: Usage, end: EndCause | AbandonedEnd, t: CallTally, gateway: string | null): Outcome {
  const billed = billFor(estimate, end, t)
  return { ...endStatus(end), gateway, usage: billed.usage, usageSource: billed.source }
}

/**
 * A call cut short without a final count: the prompt (as the upstream counted it when it said so,
 * else the estimate) and the output delivered (at least what the upstream had counted), never more
 * output than the reservation covered.
 */
function cutUsage(estimate: Usage, t: CallTally): Usage {
  const placeholder = t.reported?.usage
  const delivered = t.started ? estimateDeliveredTokens(t.deliveredChars) : 0
  const output = Math.min(estimate.outputTokens, Math.max(delivered, placeholder?.outputTokens ?? 0))
  const prompt = placeholder && promptTokens(placeholder) > 0 ? placeholder : estimate
  return {
    inputTokens: prompt.inputTokens,
    cacheReadTokens: prompt.cacheReadTokens,
    cacheWriteTokens: prompt.cacheWriteTokens,
    outputTokens: output,
    reasoningTokens: 0,
  }
}

const promptTokens = (u: Usage): number => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens
