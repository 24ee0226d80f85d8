// Anthropic SSE events → canonical events. Blocks map one to one onto parts; an `error` event
// (e.g. overloaded_error) fails the stream; the answer is complete only after message_stop.
import type { CEvent } from '../../core/canonical.ts'
import { fromAnthropicStop } from '../../core/stop-reasons.ts'
import { fromAnthropicUsage, type Usage } from '../../core/usage.ts'
import type { StreamDecoder } from '../types.ts'
import type { AnthropicEventWire } from './wire.ts'

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

export function anthropicStreamDecoder(): StreamDecoder {
  let usage: Usage | undefined
  let stop: { reason: unknown; sequence?: string } | undefined
  let stopped = false
  let id: string | undefined
  const toolIndex = new Map<number, number>()
  return {
    upstreamId: () => id,
    push(ev) {
      if (ev.data === '[DONE]') return [] // some compatible servers end with the chat sentinel
      const data: AnthropicEventWire = JSON.parse(ev.data)
      const out: CEvent[] = []
      switch (data.type) {
        case 'message_start':
          usage = fromAnthropicUsage(data.message?.usage)
          // The prompt's count is real; output_tokens is a placeholder until message_delta.
          if (usage) out.push({ type: 'usage', usage, final: false })
          if (typeof data.message?.id === 'string') id = data.message.id
          break
        case 'content_block_start': {
          const b = data.content_block ?? {}
          if (b.type === 'tool_use') {
            const index = toolIndex.size
            toolIndex.set(data.index, index)
            out.push({ type: 'tool_call_start', index, id: String(b.id), name: String(b.name) })
          } else if (b.type === 'text' && b.text) out.push({ type: 'text', text: b.text })
          else if (b.type === 'thinking')
            out.push({ type: 'reasoning_start' }, ...(b.thinking ? [{ type: 'reasoning' as const, text: b.thinking }] : []))
          else if (b.type === 'redacted_thinking') out.push({ type: 'reasoning_redacted', data: String(b.data ?? '') })
          break
        }
        case 'content_block_delta': {
          const d = data.delta
          if (d?.type === 'text_delta') out.push({ type: 'text', text: d.text })
          else if (d?.type === 'thinking_delta') out.push({ type: 'reasoning', text: d.thinking })
          else if (d?.type === 'signature_delta') out.push({ type: 'reasoning_signature', signature: d.signature })
          else if (d?.type === 'input_json_delta' && d.partial_json && toolIndex.has(data.index))
            out.push({ type: 'tool_call_args', index: toolIndex.get(data.index)!, delta: d.partial_json })
          break
        }
        case 'message_delta': {
          const next = fromAnthropicUsage({ ...usageBase(usage), ...data.usage })
          if (next) {
            usage = next
            out.push({ type: 'usage', usage: next, final: true })
          }
          stop = { reason: data.delta?.stop_reason, sequence: data.delta?.stop_sequence ?? undefined }
          break
        }
        case 'message_stop':
          stopped = true
          if (stop) out.push({ type: 'finish', stopReason: fromAnthropicStop(stop.reason), stopSequence: stop.sequence })
          break
        case 'error':
          out.push({ type: 'error', message: String(data.error?.message ?? 'upstream error') })
          break
      }
      return out
    },
    end() {
      if (!stop || !stopped) throw new Error('stream ended before message_stop')
      return []
    },
  }
}
