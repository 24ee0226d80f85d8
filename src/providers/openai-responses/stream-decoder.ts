// OpenAI responses events → canonical events: output items map onto parts; the terminal
// response.completed / response.incomplete gives usage and the stop reason; `error` or
// response.failed fails the stream.
import type { CEvent } from '../../core/canonical.ts'
import { fromResponsesUsage, type ReportedUsage } from '../../core/usage.ts'
import { DONE } from '../../lib/wire.ts'
import { withStatus } from '../stream-error-status.ts'
import type { StreamDecoder } from '../types.ts'
import { fromResponsesStatus } from './response.ts'
import { parseResponsesEvent, type ResponsesEventWire } from './wire.ts'

/** Every text the client receives counts as delivered output: answer, refusal, reasoning, tool input (audio is not text). */
const deliversText = (data: ResponsesEventWire): data is ResponsesEventWire & { delta: string } =>
  typeof data.delta === 'string' && data.type.endsWith('.delta') && data.type !== 'response.audio.delta'

export function responsesStreamDecoder(): StreamDecoder<ResponsesEventWire> {
  const tools = new Map<string, { index: number; args: boolean }>() // item id → tool
  let finished = false
  let failed = false
  let refusal = false
  let reported: ReportedUsage | undefined
  let chars = 0
  let id: string | undefined
  const tool = (itemId: unknown) => tools.get(String(itemId))
  const delta = (data: ResponsesEventWire) => (typeof data.delta === 'string' ? data.delta : '')
  return {
    parse: parseResponsesEvent,
    upstreamId: () => id,
    usage: () => reported,
    deliveredChars: () => chars,
    read(data): CEvent[] {
      if (data === DONE) return [] // some compatible servers end with the chat sentinel
      if (id === undefined && typeof data.response?.id === 'string') id = data.response.id
      if (deliversText(data)) chars += data.delta.length
      switch (data.type) {
        case 'response.output_item.added': {
          const item = data.item ?? {}
          if (item.type === 'reasoning') return [{ type: 'reasoning_start' }]
          if (item.type !== 'function_call') return []
          const index = tools.size
          tools.set(String(item.id ?? `fc_${index}`), { index, args: false })
          return [{ type: 'tool_call_start', index, id: String(item.call_id), name: String(item.name) }]
        }
        case 'response.output_text.delta':
          return delta(data) ? [{ type: 'text', text: delta(data) }] : []
        case 'response.refusal.delta':
          refusal = true
          return delta(data) ? [{ type: 'text', text: delta(data), refusal: true }] : []
        case 'response.reasoning_summary_part.added':
          // Summary parts join with a newline, as in the JSON answer (and a translated client receives it).
          if ((data.summary_index ?? 0) === 0) return []
          chars += 1
          return [{ type: 'reasoning', text: '\n' }]
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          return delta(data) ? [{ type: 'reasoning', text: delta(data) }] : []
        case 'response.function_call_arguments.delta': {
          const t = tool(data.item_id)
          if (!t || !delta(data)) return []
          t.args = true
          return [{ type: 'tool_call_args', index: t.index, delta: delta(data) }]
        }
        case 'response.function_call_arguments.done': {
          // Some servers send the arguments only whole, in the done event.
          const t = tool(data.item_id)
          if (!t || t.args || !data.arguments) return []
          t.args = true
          chars += String(data.arguments).length
          return [{ type: 'tool_call_args', index: t.index, delta: String(data.arguments) }]
        }
        case 'response.output_item.done':
          return data.item?.type === 'reasoning' && data.item.encrypted_content
            ? [{ type: 'reasoning_encrypted', data: data.item.encrypted_content, id: data.item.id }]
            : []
        case 'response.completed':
        case 'response.incomplete': {
          finished = true
          const r = data.response ?? {}
          const usage = fromResponsesUsage(r.usage)
          // Only the terminal event's response carries the count (response.created's is a placeholder).
          if (usage) reported = { usage, final: true }
          const stopReason = refusal ? 'refusal' : fromResponsesStatus(r.status, r.incomplete_details?.reason, tools.size > 0)
          const out: CEvent[] = usage ? [{ type: 'usage', usage, final: true }] : []
          return [...out, { type: 'finish', stopReason }]
        }
        case 'response.failed':
        case 'error':
          failed = true
          return [
            {
              type: 'error',
              message: String(data.error?.message ?? data.response?.error?.message ?? data.message ?? 'upstream error'),
              ...withStatus(data.error?.code ?? data.response?.error?.code),
            },
          ]
        default:
          return []
      }
    },
    complete: () => finished && !failed,
    end: () => [],
  }
}
