// Anthropic message JSON → canonical response.
import type { CPart, CResponse } from '../../core/canonical.ts'
import { fromAnthropicStop } from '../../core/stop-reasons.ts'
import { fromAnthropicUsage } from '../../core/usage.ts'
import { asList } from '../../lib/json.ts'
import type { AnthropicBlockWire, AnthropicMessageWire } from './wire.ts'

/** Server-tool blocks (web search results, …) cannot cross protocols and are left out. */
export function anthropicPart(b: AnthropicBlockWire): CPart | undefined {
  switch (b?.type) {
    case 'text':
      return { type: 'text', text: String(b.text ?? '') }
    case 'thinking':
      return { type: 'reasoning', text: String(b.thinking ?? ''), signature: b.signature || undefined, origin: 'anthropic-messages' }
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: String(b.data ?? ''), origin: 'anthropic-messages' }
    case 'tool_use':
      return { type: 'tool_call', id: String(b.id), name: String(b.name), arguments: JSON.stringify(b.input ?? {}) }
    default:
      return undefined
  }
}

export function parseAnthropicResponse(json: AnthropicMessageWire): CResponse {
  const content = asList(json.content)
    .map(anthropicPart)
    .filter((p): p is CPart => p !== undefined)
  return {
    id: String(json.id ?? ''),
    content,
    stopReason: fromAnthropicStop(json.stop_reason),
    stopSequence: json.stop_sequence ?? undefined,
    usage: fromAnthropicUsage(json.usage),
  }
}
