// OpenAI responses events → canonical events: output items map onto parts; the terminal
// response.completed / response.incomplete gives usage and the stop reason; `error` or
// response.failed fails the stream.
import type { CEvent } from '../../core/canonical.ts'
import { fromResponsesUsage } from '../../core/usage.ts'
import type { StreamDecoder } from '../types.ts'
import { fromResponsesStatus } from './response.ts'
import type { ResponsesEventWire } from './wire.ts'

export function responsesStreamDecoder(): StreamDecoder {
  const tools = new Map<string, { index: number; args: boolean }>() // item id → tool
  let finished = false
  let refusal = false
  let id: string | undefined
  const tool = (itemId: unknown) => tools.get(String(itemId))
  return {
    upstreamId: () => id,
    push(ev) {
      if (ev.data === '[DONE]') return [] // some compatible servers end with the chat sentinel
      const data: ResponsesEventWire = JSON.parse(ev.data)
      if (id === undefined && typeof data.response?.id === 'string') id = data.response.id
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
          return data.delta ? [{ type: 'text', text: data.delta }] : []
        case 'response.refusal.delta':
          refusal = true
          return data.delta ? [{ type: 'text', text: data.delta, refusal: true }] : []
        case 'response.reasoning_summary_part.added':
          // Summary parts join with a newline, as in the JSON answer.
          return (data.summary_index ?? 0) > 0 ? [{ type: 'reasoning', text: '\n' }] : []
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          return data.delta ? [{ type: 'reasoning', text: data.delta }] : []
        case 'response.function_call_arguments.delta': {
          const t = tool(data.item_id)
          if (!t || !data.delta) return []
          t.args = true
          return [{ type: 'tool_call_args', index: t.index, delta: data.delta }]
        }
        case 'response.function_call_arguments.done': {
          // Some servers send the arguments only whole, in the done event.
          const t = tool(data.item_id)
          if (!t || t.args || !data.arguments) return []
          t.args = true
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
          const stopReason = refusal ? 'refusal' : fromResponsesStatus(r.status, r.incomplete_details?.reason, tools.size > 0)
          const out: CEvent[] = usage ? [{ type: 'usage', usage, final: true }] : []
          return [...out, { type: 'finish', stopReason }]
        }
        case 'response.failed':
        case 'error':
          return [
            { type: 'error', message: String(data.error?.message ?? data.response?.error?.message ?? data.message ?? 'upstream error') },
          ]
        default:
          return []
      }
    },
    end() {
      if (!finished) throw new Error('stream ended before response.completed')
      return []
    },
  }
}
