// Canonical events → Responses stream events in the protocol's order, each with sequence_number:
// response.created, response.in_progress, then per output item added → deltas → done, and
// response.completed / response.incomplete (with usage and svc). Failure: response.failed, then `error`.
import type { CEvent, StopReason } from '../../core/canonical.ts'
import type { GatewayError } from '../../core/errors.ts'
import type { StreamEncoder } from '../../core/frames.ts'
import type { Usage } from '../../core/usage.ts'
import { anthropicEncrypted, anthropicRedactedEncrypted } from '../../core/reasoning-carrier.ts'
import { responseObject, statusOf, type ResponseMeta } from './encode.ts'
import { responsesStreamError } from './error.ts'

type Kind = 'text' | 'refusal' | 'reasoning' | 'function_call'
type Open = { kind: Kind; item: Record<string, unknown>; text: string; tool?: number; signature?: string }

export function responsesStreamEncoder(meta: ResponseMeta): StreamEncoder {
  let seq = 0
  let started = false
  let open: Open | undefined
  const done: Record<string, unknown>[] = []
  let usage: Usage | undefined
  let stop: StopReason = 'end'
  const suffix = meta.id.replace(/^resp_/, '')
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`
  const start = () => {
    if (started) return ''
    started = true
    const response = responseObject(meta, 'in_progress', [], undefined, undefined)
    return ev('response.created', { response }) + ev('response.in_progress', { response })
  }
  const at = () => ({ item_id: open!.item.id, output_index: done.length })

  const closeItem = () => {
    if (!open) return ''
    const o = open
    const where = at()
    let out = ''
    if (o.kind === 'text' || o.kind === 'refusal') {
      const part = o.kind === 'text' ? { type: 'output_text', text: o.text, annotations: [] } : { type: 'refusal', refusal: o.text }
      out +=
        o.kind === 'text'
          ? ev('response.output_text.done', { ...where, content_index: 0, text: o.text })
          : ev('response.refusal.done', { ...where, content_index: 0, refusal: o.text })
      out += ev('response.content_part.done', { ...where, content_index: 0, part })
      o.item = { ...o.item, status: 'completed', content: [part] }
    } else if (o.kind === 'reasoning') {
      const summary = o.text ? [{ type: 'summary_text', text: o.text }] : []
      if (o.text) {
        out += ev('response.reasoning_summary_text.done', { ...where, summary_index: 0, text: o.text })
        out += ev('response.reasoning_summary_part.done', { ...where, summary_index: 0, part: summary[0] })
      }
      o.item = { ...o.item, summary, ...(o.signature ? { encrypted_content: anthropicEncrypted(o.signature) } : {}) }
    } else {
      // A call that streamed no arguments has none: "{}" parses where "" would not.
      if (!o.text) out += ev('response.function_call_arguments.delta', { ...where, delta: (o.text = '{}') })
      out += ev('response.function_call_arguments.done', { ...where, arguments: o.text })
      o.item = { ...o.item, status: 'completed', arguments: o.text }
    }
    open = undefined
    done.push(o.item)
    return out + ev('response.output_item.done', { output_index: done.length - 1, item: o.item })
  }

  /** Item ids derive from the response id and the item's output index (as in the JSON answer). */
  const openItem = (kind: Kind, prefix: string, fields: Record<string, unknown>, tool?: number) => {
    const out = closeItem()
    const item = { id: `${prefix}_${suffix}_${done.length}`, ...fields }
    open = { kind, item, text: '', tool }
    return out + ev('response.output_item.added', { output_index: done.length, item })
  }
  const message = (kind: 'text' | 'refusal') => {
    if (open?.kind === kind) return ''
    const out = openItem(kind, 'msg', { type: 'message', status: 'in_progress', role: 'assistant', content: [] })
    const part = kind === 'text' ? { type: 'output_text', text: '', annotations: [] } : { type: 'refusal', refusal: '' }
    return out + ev('response.content_part.added', { ...at(), content_index: 0, part })
  }
  const reasoning = (fresh = false) =>
    open?.kind === 'reasoning' && !fresh ? '' : openItem('reasoning', 'rs', { type: 'reasoning', summary: [] })
  const summaryDelta = (text: string) => {
    const first = open!.text === ''
    open!.text += text
    const added = first
      ? ev('response.reasoning_summary_part.added', { ...at(), summary_index: 0, part: { type: 'summary_text', text: '' } })
      : ''
    return added + ev('response.reasoning_summary_text.delta', { ...at(), summary_index: 0, delta: text })
  }

  return {
    push(e: CEvent) {
      let out = start()
      switch (e.type) {
        case 'text': {
          const kind = e.refusal ? 'refusal' : 'text'
          out += message(kind)
          open!.text += e.text
          return (
            out +
            (kind === 'text'
              ? ev('response.output_text.delta', { ...at(), content_index: 0, delta: e.text })
              : ev('response.refusal.delta', { ...at(), content_index: 0, delta: e.text }))
          )
        }
        case 'reasoning_start':
          return out + reasoning(true)
        case 'reasoning':
          out += reasoning()
          return out + summaryDelta(e.text)
        case 'reasoning_signature':
          // Anthropic's signature rides in encrypted_content (reasoning-carrier).
          out += reasoning()
          open!.signature = (open!.signature ?? '') + e.signature
          return out
        case 'reasoning_redacted': {
          out += openItem('reasoning', 'rs', { type: 'reasoning', summary: [], encrypted_content: anthropicRedactedEncrypted(e.data) })
          return out + closeItem()
        }
        case 'tool_call_start':
          return (
            out +
            openItem(
              'function_call',
              'fc',
              { type: 'function_call', status: 'in_progress', call_id: e.id, name: e.name, arguments: '' },
              e.index,
            )
          )
        case 'tool_call_args':
          // A fragment for a call already closed cannot be placed (upstreams stream calls in turn).
          if (open?.kind !== 'function_call' || open.tool !== e.index) return out
          open.text += e.delta
          return out + ev('response.function_call_arguments.delta', { ...at(), delta: e.delta })
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
      const out = start() + closeItem()
      const status = statusOf(stop)
      const response = JSON.stringify(responseObject(meta, status, done, usage, stop))
      const type = status === 'completed' ? 'response.completed' : 'response.incomplete'
      return (
        out + `event: ${type}\ndata: {"type":"${type}","sequence_number":${seq++},"response":${response.slice(0, -1)},"svc":${svc}}}\n\n`
      )
    },
    error: (err: GatewayError) => {
      const response = responseObject(meta, 'in_progress', open ? [...done, open.item] : done, usage, undefined)
      const out = responsesStreamError(err, seq, response)
      seq += 2
      return out
    },
  }
}
