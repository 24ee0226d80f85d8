// Canonical events → Anthropic messages stream: message_start, ping, content_block_start /
// _delta / _stop per block, message_delta (stop reason, usage, svc), message_stop.
import type { CEvent, StopReason } from '../../core/canonical.ts'
import type { StreamEncoder } from '../../core/stream-encoder.ts'
import { toAnthropicStop } from '../../core/stop-reasons.ts'
import { openAiSignature } from '../../core/reasoning-carrier.ts'
import type { Usage } from '../../core/usage.ts'
import { messagesStreamError } from './error.ts'
import { messagesUsage } from './encode.ts'

const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

export function messagesStreamEncoder(id: string, model: string): StreamEncoder {
  let started = false
  let index = -1
  let open: 'text' | 'thinking' | 'tool_use' | undefined
  let usage: Usage | undefined
  let stop: { reason: StopReason; sequence?: string } = { reason: 'end' }
  const start = () => {
    if (started) return ''
    started = true
    const message = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: messagesUsage(undefined) }
    return frame('message_start', { message }) + frame('ping', {})
  }
  const closeBlock = () => {
    if (open === undefined) return ''
    open = undefined
    return frame('content_block_stop', { index })
  }
  const openBlock = (kind: 'text' | 'thinking' | 'tool_use', block: Record<string, unknown>) => {
    const out = closeBlock()
    index++
    open = kind
    return out + frame('content_block_start', { index, content_block: block })
  }
  return {
    push(ev: CEvent) {
      let out = start()
      switch (ev.type) {
        case 'text':
          if (open !== 'text') out += openBlock('text', { type: 'text', text: '' })
          return out + frame('content_block_delta', { index, delta: { type: 'text_delta', text: ev.text } })
        case 'reasoning':
          if (open !== 'thinking') out += openBlock('thinking', { type: 'thinking', thinking: '', signature: '' })
          return out + frame('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: ev.text } })
        case 'reasoning_signature':
          if (open !== 'thinking') out += openBlock('thinking', { type: 'thinking', thinking: '', signature: '' })
          return out + frame('content_block_delta', { index, delta: { type: 'signature_delta', signature: ev.signature } })
        case 'tool_call_start':
          return out + openBlock('tool_use', { type: 'tool_use', id: ev.id, name: ev.name, input: {} })
        case 'tool_call_args':
          return open === 'tool_use' ? out + frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: ev.delta } }) : out
        case 'usage':
          usage = ev.usage
          return out
        case 'finish':
          stop = { reason: ev.stopReason, sequence: ev.stopSequence }
          return out
        case 'reasoning_encrypted':
          // OpenAI's encrypted reasoning rides in the thinking block's signature (reasoning-carrier).
          if (open !== 'thinking') out += openBlock('thinking', { type: 'thinking', thinking: '', signature: '' })
          return out + frame('content_block_delta', { index, delta: { type: 'signature_delta', signature: openAiSignature(ev.id, ev.data) } })
        default:
          return out
      }
    },
    close(svc) {
      const u = messagesUsage(usage)
      return (
        start() +
        closeBlock() +
        `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: toAnthropicStop(stop.reason), stop_sequence: stop.sequence ?? null }, usage: u }).slice(0, -1)},"svc":${svc}}\n\n` +
        frame('message_stop', {})
      )
    },
    error: messagesStreamError,
  }
}
