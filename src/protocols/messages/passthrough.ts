// Messages served by an Anthropic upstream: frames pass through as they arrive (message_start,
// the one naming the model, gets the public slug); usage is read on the side; message_delta and
// message_stop — the last two events — are held so message_delta can carry svc.
import { GatewayError } from '../../core/errors.ts'
import type { FrameTransform } from '../../core/frames.ts'
import { fromAnthropicUsage, type ReportedUsage, type Usage } from '../../core/usage.ts'
import { appendMemberJson } from '../../lib/json-tokens.ts'
import { messagesStreamError } from './error.ts'

/** An upstream stream event: the members this stage reads, the rest passed on as sent. */
interface MessagesEventWire {
  type?: string
  message?: Record<string, unknown> & { usage?: unknown }
  delta?: { text?: unknown; thinking?: unknown; partial_json?: unknown }
  usage?: Record<string, unknown>
  error?: unknown
}

export function messagesTee(slug: string): FrameTransform {
  let usage: Usage | undefined
  let final = false
  let chars = 0
  let held: string | undefined
  let stopped = false
  return {
    push(ev) {
      if (ev.data === '[DONE]') return '' // a compatible server's chat sentinel: not part of this protocol
      const data = JSON.parse(ev.data) as MessagesEventWire
      switch (data.type) {
        case 'message_start':
          // A placeholder count (output_tokens: 1): final only once message_delta says so.
          usage = fromAnthropicUsage(data.message?.usage)
          // The one event that names the model: re-serialised with the public slug.
          return `event: message_start\ndata: ${JSON.stringify({ ...data, message: { ...data.message, model: slug } })}\n\n`
        case 'content_block_delta': {
          const d = data.delta ?? {}
          chars += String(d.text ?? d.thinking ?? d.partial_json ?? '').length
          break
        }
        case 'message_delta': {
          const base = usage
            ? {
                input_tokens: usage.inputTokens,
                cache_read_input_tokens: usage.cacheReadTokens,
                cache_creation_input_tokens: usage.cacheWriteTokens,
              }
            : {}
          const counted = fromAnthropicUsage({ ...base, ...data.usage })
          if (counted) final = true
          usage = counted ?? usage
          held = ev.data
          return ''
        }
        case 'message_stop':
          stopped = true
          return ''
        case 'error':
          throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed mid-stream.', { cause: data.error })
      }
      return `event: ${ev.event ?? data.type}\ndata: ${ev.data}\n\n`
    },
    complete: () => stopped && held !== undefined,
    close: (svc) =>
      `event: message_delta\ndata: ${appendMemberJson(held!, 'svc', svc)}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`,
    error: messagesStreamError,
    usage: (): ReportedUsage | undefined => usage && { usage, final },
    deliveredChars: () => chars,
  }
}
