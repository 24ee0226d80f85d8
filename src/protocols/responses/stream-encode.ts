// Canonical events → Responses stream events in SPEC order, each with sequence_number:
// response.created, response.in_progress, then per output item added → deltas → done, and
// response.completed / response.incomplete (with usage and svc). Failure: one `error` event.
import type { CEvent, StopReason } from '../../core/canonical.ts'
import type { GatewayError } from '../../core/errors.ts'
import type { StreamEncoder } from '../../core/stream-encoder.ts'
import type { Usage } from '../../core/usage.ts'
import { anthropicEncrypted } from '../../core/reasoning-carrier.ts'
import { responseObject, statusOf, type ResponseMeta } from './encode.ts'
import { responsesStreamError } from './error.ts'

type Open = { kind: 'message' | 'reasoning' | 'function_call'; item: Record<string, any>; text: string; signature?: string }

export function responsesStreamEncoder(meta: ResponseMeta): StreamEncoder {
  let seq = 0
  let started = false
  let open: Open | undefined
  const done: Record<string, unknown>[] = []
  const toolIndex = new Map<number, boolean>()
  let usage: Usage | undefined
  let stop: StopReason = 'end'
  const suffix = meta.id.replace(/^resp_/, '')
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`
  const start = () => {
    if (started) return ''
    started = true
    const response = responseObject(meta, 'in_progress', [], undefined, undefined)
    return ev('response.created', { response }) + ev('response.in_progress', { response })
  }
  const closeItem = () => {
    if (!open) return ''
    const o = open
    open = undefined
    const output_index = done.length
    let out = ''
    if (o.kind === 'message') {
      const part = { type: 'output_text', text: o.text, annotations: [] }
      out += ev('response.output_text.done', { item_id: o.item.id, output_index, content_index: 0, text: o.text })
      out += ev('response.content_part.done', { item_id: o.item.id, output_index, content_index: 0, part })
      o.item = { ...o.item, status: 'completed', content: [part] }
    } else if (o.kind === 'reasoning') {
      const part = { type: 'summary_text', text: o.text }
      out += ev('response.reasoning_summary_text.done', { item_id: o.item.id, output_index, summary_index: 0, text: o.text })
      out += ev('response.reasoning_summary_part.done', { item_id: o.item.id, output_index, summary_index: 0, part })
      o.item = { ...o.item, summary: [part], ...(o.signature ? { encrypted_content: anthropicEncrypted(o.signature) } : {}) }
    } else {
      out += ev('response.function_call_arguments.done', { item_id: o.item.id, output_index, arguments: o.text })
      o.item = { ...o.item, status: 'completed', arguments: o.text }
    }
    done.push(o.item)
    return out + ev('response.output_item.done', { output_index, item: o.item })
  }
  const openItem = (kind: Open['kind'], item: Record<string, any>) => {
    let out = closeItem()
    open = { kind, item, text: '' }
    const output_index = done.length
    out += ev('response.output_item.added', { output_index, item })
    if (kind === 'message') out += ev('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
    if (kind === 'reasoning') out += ev('response.reasoning_summary_part.added', { item_id: item.id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } })
    return out
  }
  return {
    push(e: CEvent) {
      let out = start()
      const id = () => `${suffix}_${done.length}`
      switch (e.type) {
        case 'text':
          if (open?.kind !== 'message') out += openItem('message', { id: `msg_${id()}`, type: 'message', status: 'in_progress', role: 'assistant', content: [] })
          open!.text += e.text
          return out + ev('response.output_text.delta', { item_id: open!.item.id, output_index: done.length, content_index: 0, delta: e.text })
        case 'reasoning':
          if (open?.kind !== 'reasoning') out += openItem('reasoning', { id: `rs_${id()}`, type: 'reasoning', summary: [] })
          open!.text += e.text
          return out + ev('response.reasoning_summary_text.delta', { item_id: open!.item.id, output_index: done.length, summary_index: 0, delta: e.text })
        case 'reasoning_signature':
          // Anthropic's signature rides in encrypted_content (reasoning-carrier).
          if (open?.kind === 'reasoning') open.signature = (open.signature ?? '') + e.signature
          return out
        case 'tool_call_start':
          toolIndex.set(e.index, true)
          return out + openItem('function_call', { id: `fc_${id()}`, type: 'function_call', status: 'in_progress', call_id: e.id, name: e.name, arguments: '' })
        case 'tool_call_args':
          if (open?.kind !== 'function_call') return out
          open.text += e.delta
          return out + ev('response.function_call_arguments.delta', { item_id: open.item.id, output_index: done.length, delta: e.delta })
        case 'usage':
          usage = e.usage
          return out
        case 'finish':
          stop = e.stopReason
          return out
        default:
          return out
      }
    },
    close(svc) {
      let out = start() + closeItem()
      const status = statusOf(stop)
      const response = JSON.stringify(responseObject(meta, status, done, usage, stop))
      const type = status === 'completed' ? 'response.completed' : 'response.incomplete'
      out += `event: ${type}\ndata: {"type":"${type}","sequence_number":${seq++},"response":${response.slice(0, -1)},"svc":${svc}}}\n\n`
      return out
    },
    error: (err: GatewayError) => responsesStreamError(err, seq++),
  }
}
