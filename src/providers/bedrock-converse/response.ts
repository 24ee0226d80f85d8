// Converse JSON answer → canonical response; Converse usage → canonical (its stop reasons map in
// core/stop-reasons.ts with the others). Converse
// counts cache reads and writes apart from inputTokens, as Anthropic does.
import type { CPart, CResponse } from '../../core/canonical.ts'
import { fromConverseStop } from '../../core/stop-reasons.ts'
import type { Usage } from '../../core/usage.ts'
import { asList } from '../../lib/json.ts'
import type { ConverseAnswerWire, ConverseBlockWire, ConverseUsageWire } from './wire.ts'

const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0)

export function fromConverseUsage(u: ConverseUsageWire | undefined): Usage | undefined {
  if (!u || (typeof u.inputTokens !== 'number' && typeof u.outputTokens !== 'number')) return undefined
  return {
    inputTokens: int(u.inputTokens),
    outputTokens: int(u.outputTokens),
    cacheReadTokens: int(u.cacheReadInputTokens),
    cacheWriteTokens: int(u.cacheWriteInputTokens),
    reasoningTokens: 0,
  }
}

function part(b: ConverseBlockWire): CPart | undefined {
  if (typeof b?.text === 'string') return { type: 'text', text: b.text }
  if (b?.toolUse)
    return {
      type: 'tool_call',
      id: String(b.toolUse.toolUseId ?? ''),
      name: String(b.toolUse.name ?? ''),
      arguments: JSON.stringify(b.toolUse.input ?? {}),
    }
  const r = b?.reasoningContent
  if (r?.redactedContent !== undefined) return { type: 'reasoning', text: '', redacted: r.redactedContent, origin: 'bedrock-converse' }
  if (r?.reasoningText)
    return {
      type: 'reasoning',
      text: r.reasoningText.text ?? '',
      signature: r.reasoningText.signature || undefined,
      origin: 'bedrock-converse',
    }
  return undefined
}

export function parseConverseResponse(json: ConverseAnswerWire): CResponse {
  const content = asList(json.output?.message?.content)
    .map(part)
    .filter((p): p is CPart => p !== undefined)
  return { id: '', content, stopReason: fromConverseStop(json.stopReason), stopSequence: undefined, usage: fromConverseUsage(json.usage) }
}
