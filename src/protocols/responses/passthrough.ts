// Responses served by a responses upstream: frames pass through as they arrive with the
// response id and model rewritten to the service's own; the terminal response.completed /
// response.incomplete is held so its response can carry svc.
import { GatewayError } from '../../core/errors.ts'
import type { FrameTransform } from '../../core/frames.ts'
import { fromResponsesUsage, type ReportedUsage, type Usage } from '../../core/usage.ts'
import { appendMemberJson } from '../../lib/json-tokens.ts'
import { responsesStreamError } from './error.ts'

/** An upstream stream event: the members this stage reads, the rest passed on as sent. */
type ResponsesEventWire = {
  type?: string
  delta?: unknown
  sequence_number?: unknown
  response?: Record<string, unknown> & { usage?: unknown }
  [member: string]: unknown
}

/** A response object with the service's own id and model (docs/api.md "Upstream identity"). */
export const publicResponse = (response: Record<string, unknown>, ours: { id: string; model: string }) => ({
  ...response,
  id: ours.id,
  model: ours.model,
})

export function responsesTee(ours: { id: string; model: string }): FrameTransform {
  let usage: Usage | undefined
  let chars = 0
  let held: { event: string; data: ResponsesEventWire } | undefined
  let seq = 0
  /** The last response object the client saw (response.created / in_progress), for response.failed. */
  let seen: Record<string, unknown> = { id: ours.id, object: 'response', status: 'in_progress', model: ours.model, output: [] }
  return {
    push(ev) {
      if (ev.data === '[DONE]') return '' // a compatible server's chat sentinel: not part of this protocol
      const data = JSON.parse(ev.data) as ResponsesEventWire
      // Every text the client receives counts as delivered output: answer, refusal, reasoning, tool input.
      if (typeof data.delta === 'string' && data.type?.endsWith('.delta') && data.type !== 'response.audio.delta')
        chars += data.delta.length
      switch (data.type) {
        case 'response.completed':
        case 'response.incomplete':
          usage = fromResponsesUsage(data.response?.usage) ?? usage
          held = { event: data.type, data }
          return ''
        case 'response.failed':
        case 'error':
          throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed mid-stream.', { cause: data })
      }
      // The error event that may replace a later one takes the next number in the client's stream.
      if (typeof data.sequence_number === 'number') seq = data.sequence_number + 1
      // Only events carrying the response object name it; deltas pass through byte for byte.
      if (data.response) seen = publicResponse(data.response, ours)
      const out = data.response ? JSON.stringify({ ...data, response: seen }) : ev.data
      return `event: ${ev.event ?? data.type}\ndata: ${out}\n\n`
    },
    complete: () => held !== undefined,
    close(svc) {
      // The held event as sent (early streams have no sequence_number), its response ours + svc.
      const { response, ...rest } = held!.data
      const mine = appendMemberJson(JSON.stringify(publicResponse(response ?? {}, ours)), 'svc', svc)
      return `event: ${held!.event}\ndata: ${appendMemberJson(JSON.stringify(rest), 'response', mine)}\n\n`
    },
    error: (err) => responsesStreamError(err, seq, seen),
    // Only the terminal event's response carries the count (response.created's is a placeholder).
    usage: (): ReportedUsage | undefined => usage && { usage, final: true },
    deliveredChars: () => chars,
  }
}
