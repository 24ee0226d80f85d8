// Anthropic SSE events → canonical events. Blocks map one to one onto parts; an `error` event
// (e.g. overloaded_error) fails the stream; the answer is complete only after message_delta and
// message_stop.
import type { CEvent } from '../../core/canonical.ts'
import { fromAnthropicStop } from '../../core/stop-reasons.ts'
import { fromAnthropicUsage, type ReportedUsage, type Usage } from '../../core/usage.ts'
import { DONE } from '../../lib/wire.ts'
import type { StreamDecoder } from '../types.ts'
import { type AnthropicEventWire, parseAnthropicEvent } from './wire.ts'

/** message_delta usage is cumulative but may omit input fields: start from message_start's. */
const usageBase = (u: Usage | undefined) =>
  u
    ? {
        input_tokens: u.inputTokens,
        output_tokens: u.outputTokens,
        cache_read_input_tokens: u.cacheReadTokens,
        cache_creation_input_tokens: u.cacheWriteTokens,
      }
    : {}

/**
 * The HTTP status Anthropic gives each error type it may send inside a stream: a failure with a
 * status class before any content fails over like that answer would (docs/failover.md).
 */
const ERROR_STATUS: Record<string, number> = { overloaded_error: 529, rate_limit_error: 429, api_error: 500, timeout_error: 504 }

export function anthropicStreamDecoder(): StreamDecoder<AnthropicEventWire> {
  let reported: ReportedUsage | undefined
  let stop: { reason: unknown; sequence?: string } | undefined
  let stopped = false
  let failed = false
  let chars = 0
  let id: string | undefined
  const toolIndex = new Map<number, number>()
  const text = (t: string): CEvent[] => {
    chars += t.length
    return [{ type: 'text', text: t }]
  }
  return {
    parse: parseAnthropicEvent,
    upstreamId: () => id,
    usage: () => reported,
    deliveredChars: () => chars,
    read(data) {
      if (data === DONE) return [] // some compatible servers end with the chat sentinel
      switch (data.type) {
        case 'message_start': {
          const usage = fromAnthropicUsage(data.message?.usage)
          if (typeof data.message?.id === 'string') id = data.message.id
          // The prompt's count is real; output_tokens is a placeholder until message_delta.
          if (!usage) return []
          reported = { usage, final: false }
          return [{ type: 'usage', usage, final: false }]
        }
        case 'content_block_start': {
          const b = data.content_block ?? {}
          if (b.type === 'tool_use') {
            const index = toolIndex.size
            toolIndex.set(data.index, index)
            return [{ type: 'tool_call_start', index, id: String(b.id), name: String(b.name) }]
          }
          if (b.type === 'text' && b.text) return text(b.text)
          if (b.type === 'thinking') {
            chars += b.thinking?.length ?? 0
            return [{ type: 'reasoning_start' }, ...(b.thinking ? [{ type: 'reasoning' as const, text: b.thinking }] : [])]
          }
          if (b.type === 'redacted_thinking') return [{ type: 'reasoning_redacted', data: String(b.data ?? '') }]
          return []
        }
        case 'content_block_delta': {
          const d = data.delta
          if (d?.type === 'text_delta') return text(d.text)
          if (d?.type === 'thinking_delta') {
            chars += d.thinking.length
            return [{ type: 'reasoning', text: d.thinking }]
          }
          if (d?.type === 'signature_delta') return [{ type: 'reasoning_signature', signature: d.signature }]
          if (d?.type !== 'input_json_delta') return []
          // Tool input reaches a pass-through client whether or not its block was announced.
          chars += d.partial_json.length
          const index = toolIndex.get(data.index)
          return d.partial_json && index !== undefined ? [{ type: 'tool_call_args', index, delta: d.partial_json }] : []
        }
        case 'message_delta': {
          stop = { reason: data.delta?.stop_reason, sequence: data.delta?.stop_sequence ?? undefined }
          const next = fromAnthropicUsage({ ...usageBase(reported?.usage), ...data.usage })
          if (!next) return []
          reported = { usage: next, final: true }
          return [{ type: 'usage', usage: next, final: true }]
        }
        case 'message_stop':
          stopped = true
          return stop ? [{ type: 'finish', stopReason: fromAnthropicStop(stop.reason), stopSequence: stop.sequence }] : []
        case 'error': {
          failed = true
          const status = ERROR_STATUS[String(data.error?.type)]
          return [{ type: 'error', message: String(data.error?.message ?? 'upstream error'), ...(status ? { status } : {}) }]
        }
      }
      return []
    },
    complete: () => !failed && stop !== undefined && stopped,
    end: () => [],
  }
}
