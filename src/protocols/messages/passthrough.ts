// Messages served by an Anthropic upstream: frames pass through as they arrive (message_start,
// the one naming the model, gets the public slug); message_delta and message_stop — the last two
// events — are held so message_delta can carry svc. Each event comes parsed once by the
// upstream's decoder (providers/anthropic-messages/wire.ts), which also says what the stream used
// and delivered.
import type { FrameTee } from '../../core/frames.ts'
import { appendMemberJson } from '../../lib/json-tokens.ts'
import type { AnthropicEventWire } from '../../providers/anthropic-messages/wire.ts'
import { messagesStreamError } from './error.ts'

export function messagesTee(slug: string): FrameTee<AnthropicEventWire> {
  let held: string | undefined
  return {
    push(ev, data) {
      switch (data.type) {
        case 'message_start':
          // The one event that names the model: re-serialised with the public slug.
          return `event: message_start\ndata: ${JSON.stringify({ ...data, message: { ...data.message, model: slug } })}\n\n`
        case 'message_delta':
          held = ev.data
          return ''
        case 'message_stop':
          return ''
      }
      return `event: ${ev.event ?? data.type}\ndata: ${ev.data}\n\n`
    },
    close: (svc) =>
      `event: message_delta\ndata: ${appendMemberJson(held!, 'svc', svc)}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`,
    error: messagesStreamError,
  }
}
