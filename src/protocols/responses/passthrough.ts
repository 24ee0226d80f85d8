// Responses served by a responses upstream: frames pass through as they arrive with the
// response id and model rewritten to the service's own; the terminal response.completed /
// response.incomplete is held so its response can carry svc. Each event comes parsed once by the
// upstream's decoder (providers/openai-responses/wire.ts), which also says what the stream used
// and delivered.
import type { FrameTee } from '../../core/frames.ts'
import { appendMemberJson } from '../../lib/json-tokens.ts'
import type { ResponsesEventWire } from '../../providers/openai-responses/wire.ts'
import { responsesStreamError } from './error.ts'

/** A response object with the service's own id and model (docs/api.md "Upstream identity"). */
export const publicResponse = (response: Record<string, unknown>, ours: { id: string; model: string }) => ({
  ...response,
  id: ours.id,
  model: ours.model,
})

export function responsesTee(ours: { id: string; model: string }): FrameTee<ResponsesEventWire> {
  let held: { event: string; data: ResponsesEventWire } | undefined
  let seq = 0
  /** The last response object the client saw (response.created / in_progress), for response.failed. */
  let seen: Record<string, unknown> = { id: ours.id, object: 'response', status: 'in_progress', model: ours.model, output: [] }
  return {
    push(ev, data) {
      if (data.type === 'response.completed' || data.type === 'response.incomplete') {
        held = { event: data.type, data }
        return ''
      }
      // The error event that may replace a later one takes the next number in the client's stream.
      if (typeof data.sequence_number === 'number') seq = data.sequence_number + 1
      // Only events carrying the response object name it; deltas pass through byte for byte.
      if (data.response) seen = publicResponse(data.response, ours)
      const out = data.response ? JSON.stringify({ ...data, response: seen }) : ev.data
      return `event: ${ev.event ?? data.type}\ndata: ${out}\n\n`
    },
    close(svc) {
      // The held event as sent (early streams have no sequence_number), its response ours + svc.
      const { response, ...rest } = held!.data
      const mine = appendMemberJson(JSON.stringify(publicResponse(response ?? {}, ours)), 'svc', svc)
      return `event: ${held!.event}\ndata: ${appendMemberJson(JSON.stringify(rest), 'response', mine)}\n\n`
    },
    error: (err) => responsesStreamError(err, seq, seen),
  }
}
