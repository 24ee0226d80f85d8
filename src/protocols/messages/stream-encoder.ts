// Canonical events → Anthropic messages stream: message_start, content_block_start, ping,
// content_block_delta (text / thinking / signature / input_json), content_block_stop,
// message_delta (stop reason, usage, svc), message_stop.
import type { CEvent, StopReason } from '../../core/canonical.ts'
import type { StreamEncoder } from '../../core/frames.ts'
import { toAnthropicStop } from '../../core/stop-reasons.ts'
import { openAiSignature } from '../../core/reasoning-carrier.ts'
import type { Usage } from '../../core/usage.ts'
import { messagesStreamError } from './error.ts'
import { messagesUsage } from './encode.ts'

const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

type Kind = 'text' | 'thinking' | 'tool_use'

export function messagesStreamEncoder(id: string, model: string): StreamEncoder {
  let started = false
  let pinged = false
  let index = -1
  let open: Kind | undefined
  /** Canonical tool index → block index (a late argument fragment still finds its block). */
  const toolBlock = new Map<number, number>()
  let usage: Usage | undefined
  let stop: { reason: StopReason; sequence?: string } = { reason: 'end' }
  const start = () => {
    if (started) return ''
    started = true
    const message = {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: messagesUsage(undefined),
    }
    return frame('message_start', { message })
  }
  const closeBlock = () => {
    if (open === undefined) return ''
    open = undefined
    return frame('content_block_stop', { index })
  }
  const openBlock = (kind: Kind, block: Record<string, unknown>) => {
    let out = closeBlock() + frame('content_block_start', { index: ++index, content_block: block })
    if (!pinged) out += frame('ping', {})
    pinged = true
    open = kind
    return out
  }
  const thinking = (fresh = false) =>
    open === 'thinking' && !fresh ? '' : openBlock('thinking', { type: 'thinking', thinking: '', signature: '' })
  const delta = (d: Record<string, unknown>, at = index) => frame('content_block_delta', { index: at, delta: d })
  return {
    push(ev: CEvent) {
      let out = start()
      switch (ev.type) {
        case 'text':
          if (open !== 'text') out += openBlock('text', { type: 'text', text: '' })
          return out + delta({ type: 'text_delta', text: ev.text })
        case 'reasoning_start':
          return out + thinking(true)
        case 'reasoning':
          return out + thinking() + delta({ type: 'thinking_delta', thinking: ev.text })
        case 'reasoning_signature':
          return out + thinking() + delta({ type: 'signature_delta', signature: ev.signature })
        case 'reasoning_encrypted':
          // OpenAI's encrypted reasoning rides in the thinking block's signature (reasoning-carrier).
          return out + thinking() + delta({ type: 'signature_delta', signature: openAiSignature(ev.id, ev.data) })
        case 'reasoning_redacted':
          return out + openBlock('thinking', { type: 'redacted_thinking', data: ev.data }) + closeBlock()
        case 'tool_call_start':
          out += openBlock('tool_use', { type: 'tool_use', id: ev.id, name: ev.name, input: {} })
          toolBlock.set(ev.index, index)
          return out
        case 'tool_call_args': {
          const at = toolBlock.get(ev.index)
          return at === undefined ? out : out + delta({ type: 'input_json_delta', partial_json: ev.delta }, at)
        }
        case 'usage':
          usage = ev.usage
          return out
        case 'finish':
          stop = { reason: ev.stopReason, sequence: ev.stopSequence }
          return out
        default:
          return out
      }
    },
    close(svc) {
      const body = JSON.stringify({
        type: 'message_delta',
        delta: { stop_reason: toAnthropicStop(stop.reason), stop_sequence: stop.sequence ?? null },
        usage: messagesUsage(usage),
      })
      return start() + closeBlock() + `event: message_delta\ndata: ${body.slice(0, -1)},"svc":${svc}}\n\n` + frame('message_stop', {})
    },
    error: messagesStreamError,
  }
}
