// Responses served by a responses upstream: frames pass through as they arrive with the
// response id and model rewritten to the service's own; the terminal response.completed /
// response.incomplete is held so its response can carry svc.
import { GatewayError } from '../../core/errors.ts'
import type { FrameTransform } from '../../core/stream-encoder.ts'
import { fromResponsesUsage, type Usage } from '../../core/usage.ts'
import { appendMemberJson, replaceMembers } from '../../lib/json-tokens.ts'
import { responsesStreamError } from './error.ts'

export function publicResponseJson(raw: string, upstream: { id: string; model: string }, ours: { id: string; model: string }): string {
  return replaceMembers(replaceMembers(raw, 'id', upstream.id, ours.id), 'model', upstream.model, ours.model)
}

export function responsesTee(ours: { id: string; model: string }): FrameTransform {
  let usage: Usage | undefined
  let chars = 0
  const upstream = { id: '', model: '' }
  let held: { event: string; data: string } | undefined
  let seq = 0
  return {
    push(ev) {
      const data = JSON.parse(ev.data)
      if (typeof data.sequence_number === 'number') seq = data.sequence_number + 1
      if (data.response?.id && !upstream.id) {
        upstream.id = String(data.response.id)
        upstream.model = String(data.response.model ?? '')
      }
      switch (data.type) {
        case 'response.output_text.delta':
        case 'response.function_call_arguments.delta':
        case 'response.reasoning_summary_text.delta':
          chars += String(data.delta ?? '').length
          break
        case 'response.completed':
        case 'response.incomplete':
          usage = fromResponsesUsage(data.response?.usage) ?? usage
          held = { event: data.type, data: publicResponseJson(ev.data, upstream, ours) }
          return ''
        case 'response.failed':
        case 'error':
          throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed mid-stream.', { cause: data })
      }
      return `event: ${ev.event ?? data.type}\ndata: ${publicResponseJson(ev.data, upstream, ours)}\n\n`
    },
    complete: () => held !== undefined,
    close(svc) {
      const data = JSON.parse(held!.data)
      const response = appendMemberJson(JSON.stringify(data.response), 'svc', svc)
      return `event: ${held!.event}\ndata: {"type":"${held!.event}","sequence_number":${data.sequence_number},"response":${response}}\n\n`
    },
    error: (err) => responsesStreamError(err, seq),
    usage: () => usage,
    deliveredChars: () => chars,
  }
}
