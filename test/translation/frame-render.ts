// Renders every client-visible stream frame of each protocol as one short line, so a test can
// state the exact sequence a client receives (event kinds, indexes, ids, names, deltas, stop
// reasons, usage) without repeating the JSON boilerplate of each frame.
import { SseParser } from '../../src/lib/sse/parse.ts'

export type Inbound = 'chat' | 'messages' | 'responses'

export function frames(sse: string): { event: string | undefined; data: string }[] {
  return new SseParser().push(sse.endsWith('\n\n') ? sse : `${sse}\n\n`)
}

function chatLine(data: string): string {
  if (data === '[DONE]') return '[DONE]'
  const c = JSON.parse(data)
  if (c.error) return `error ${c.error.code}`
  if (c.svc) return 'svc'
  if (c.usage && !c.choices?.length)
    return `usage ${c.usage.prompt_tokens}/${c.usage.completion_tokens} cached ${c.usage.prompt_tokens_details?.cached_tokens ?? 0}`
  const ch = c.choices[0]
  const d = ch.delta ?? {}
  const parts: string[] = []
  if (d.role) parts.push(`role ${d.role}`)
  if (d.content) parts.push(`text ${d.content}`)
  if (d.refusal) parts.push(`refusal ${d.refusal}`)
  if (d.reasoning_content) parts.push(`reasoning ${d.reasoning_content}`)
  for (const t of d.tool_calls ?? [])
    parts.push(
      t.id
        ? `tool ${t.index} ${t.id} ${t.function.name}${t.function.arguments ? ` ${t.function.arguments}` : ''}`
        : `tool ${t.index} ${t.function.arguments}`,
    )
  if (ch.finish_reason) parts.push(`finish ${ch.finish_reason}`)
  return parts.join(' | ')
}

function messagesLine(event: string | undefined, data: string): string {
  const e = JSON.parse(data)
  if (e.type !== event) return `MISMATCH ${event} ${e.type}`
  switch (e.type) {
    case 'message_start':
      return `message_start ${e.message.model} ${e.message.usage.input_tokens}/${e.message.usage.output_tokens}`
    case 'content_block_start': {
      const b = e.content_block
      return `start ${e.index} ${b.type}${b.type === 'tool_use' ? ` ${b.id} ${b.name}` : ''}${b.type === 'redacted_thinking' ? ` ${b.data.slice(0, 12)}` : ''}`
    }
    case 'content_block_delta': {
      const d = e.delta
      const v =
        d.type === 'text_delta'
          ? d.text
          : d.type === 'input_json_delta'
            ? d.partial_json
            : d.type === 'thinking_delta'
              ? d.thinking
              : d.signature.slice(0, 12)
      return `delta ${e.index} ${d.type.replace('_delta', '')} ${v}`
    }
    case 'content_block_stop':
      return `stop ${e.index}`
    case 'message_delta': {
      const u = e.usage
      return `message_delta ${e.delta.stop_reason} in ${u.input_tokens} out ${u.output_tokens} cache ${u.cache_read_input_tokens ?? 0}/${u.cache_creation_input_tokens ?? 0}${e.svc ? ' svc' : ''}`
    }
    case 'error':
      return `error ${e.error.type}`
    default:
      return e.type
  }
}

function responsesLine(event: string | undefined, data: string, seq: { next: number }): string {
  const e = JSON.parse(data)
  if (e.type !== event) return `MISMATCH ${event} ${e.type}`
  const s = e.sequence_number === seq.next ? '' : ` SEQ ${e.sequence_number}≠${seq.next}`
  seq.next = (e.sequence_number ?? seq.next) + 1
  const name = e.type.replace(/^response\./, '')
  switch (e.type) {
    case 'response.created':
    case 'response.in_progress':
      return `${name} ${e.response.id === 'ID' ? 'ID' : e.response.id.startsWith('resp_') ? 'resp_' : e.response.id} ${e.response.model} ${e.response.status}${s}`
    case 'response.completed':
    case 'response.incomplete': {
      const r = e.response
      const u = r.usage
      return `${name} ${r.status} ${r.incomplete_details?.reason ?? '-'} items ${r.output.map((i: any) => i.type).join(',')} in ${u.input_tokens} out ${u.output_tokens} cached ${u.input_tokens_details.cached_tokens}${r.svc ? ' svc' : ''}${s}`
    }
    case 'response.output_item.added':
    case 'response.output_item.done': {
      const i = e.item
      return `${name} ${e.output_index} ${i.type}${i.status ? ` ${i.status}` : ''}${i.type === 'function_call' ? ` ${i.call_id} ${i.name} ${i.arguments}` : ''}${s}`
    }
    case 'response.content_part.added':
    case 'response.content_part.done':
      return `${name} ${e.output_index} ${e.part.type} ${e.part.text ?? e.part.refusal ?? ''}${s}`
    case 'response.output_text.delta':
    case 'response.refusal.delta':
    case 'response.function_call_arguments.delta':
    case 'response.reasoning_summary_text.delta':
      return `${name} ${e.output_index} ${e.delta}${s}`
    case 'response.output_text.done':
      return `${name} ${e.output_index} ${e.text}${s}`
    case 'response.function_call_arguments.done':
      return `${name} ${e.output_index} ${e.arguments}${s}`
    case 'response.failed':
      return `${name} ${e.response.id.startsWith('resp_') ? 'resp_' : e.response.id} ${e.response.status} ${e.response.error?.code}${s}`
    case 'error':
      return `error ${e.code}${s}`
    default:
      return `${name} ${e.output_index ?? ''}${s}`
  }
}

/** One line per client frame, in order. */
export function render(inbound: Inbound, sse: string): string[] {
  const seq = { next: 0 }
  return frames(sse).map((f) =>
    inbound === 'chat' ? chatLine(f.data) : inbound === 'messages' ? messagesLine(f.event, f.data) : responsesLine(f.event, f.data, seq),
  )
}
