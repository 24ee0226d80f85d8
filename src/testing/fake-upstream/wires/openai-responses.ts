// The fake's OpenAI responses wire: a response with reasoning, message and function_call items,
// or its event stream (response.created … response.completed, numbered); a failed stream ends
// with `response.failed`.
import type { ScriptedUsage } from '../reply.ts'
import { type Answer, errorMessage, type Frame, lastUserText, sseEvent, stringOr, type Wire, endingIn } from './wire.ts'

const usageOf = (u: ScriptedUsage) => ({
  input_tokens: u.input,
  input_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
  output_tokens: u.output,
  output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
  total_tokens: u.input + u.output,
})

function items(a: Answer) {
  const reasoning = a.reasoning ? [{ id: `rs_${a.id}`, type: 'reasoning', summary: [{ type: 'summary_text', text: a.reasoning }] }] : []
  const part = { type: 'output_text', text: a.text, annotations: [] }
  const message =
    a.text || !a.toolCalls.length ? [{ id: `msg_${a.id}`, type: 'message', status: 'completed', role: 'assistant', content: [part] }] : []
  const calls = a.toolCalls.map((c) => ({
    id: `fc_${c.id}`,
    type: 'function_call',
    status: 'completed',
    call_id: c.id,
    name: c.name,
    arguments: c.arguments,
  }))
  return { reasoning, message, calls, part }
}

function response(a: Answer, status: string, output: object[], usage: boolean) {
  return {
    id: `resp_${a.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    model: a.model,
    output,
    usage: usage && a.usage ? usageOf(a.usage) : null,
  }
}

export const openaiResponses: Wire = {
  name: 'openai-responses',
  ...endingIn('/responses'),
  read: (body) => ({
    model: stringOr(body?.model, ''),
    stream: body?.stream === true,
    prompt: lastUserText(body?.input),
    inputText: JSON.stringify(body?.input ?? []) + stringOr(body?.instructions, ''),
  }),
  json(a) {
    const { reasoning, message, calls } = items(a)
    return response(a, 'completed', [...reasoning, ...message, ...calls], true)
  },
  frames(a) {
    const { reasoning, message, calls, part } = items(a)
    let seq = 0
    const ev = (type: string, data: object, chars?: number): Frame => ({ data: sseEvent(type, { sequence_number: seq++, ...data }), chars })
    const frames = [ev('response.created', { response: response(a, 'in_progress', [], false) })]
    let output_index = 0
    for (const r of reasoning) {
      const at = { item_id: r.id, output_index, summary_index: 0 }
      frames.push(ev('response.output_item.added', { output_index, item: { ...r, summary: [] } }))
      frames.push(ev('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } }))
      frames.push(ev('response.reasoning_summary_text.delta', { ...at, delta: r.summary[0]!.text }))
      frames.push(ev('response.output_item.done', { output_index: output_index++, item: r }))
    }
    for (const m of message) {
      const at = { item_id: m.id, output_index, content_index: 0 }
      frames.push(ev('response.output_item.added', { output_index, item: { ...m, status: 'in_progress', content: [] } }))
      frames.push(ev('response.content_part.added', { ...at, part: { ...part, text: '' } }))
      for (const p of a.pieces) frames.push(ev('response.output_text.delta', { ...at, delta: p }, p.length))
      frames.push(ev('response.output_text.done', { ...at, text: a.text }))
      frames.push(ev('response.content_part.done', { ...at, part }))
      frames.push(ev('response.output_item.done', { output_index: output_index++, item: m }))
    }
    for (const c of calls) {
      const at = { item_id: c.id, output_index }
      frames.push(ev('response.output_item.added', { output_index, item: { ...c, status: 'in_progress', arguments: '' } }))
      frames.push(ev('response.function_call_arguments.delta', { ...at, delta: c.arguments }))
      frames.push(ev('response.function_call_arguments.done', { ...at, arguments: c.arguments }))
      frames.push(ev('response.output_item.done', { output_index: output_index++, item: c }))
    }
    frames.push(ev('response.completed', { response: response(a, 'completed', [...reasoning, ...message, ...calls], true) }))
    return frames
  },
  streamError: (message, status) =>
    sseEvent('response.failed', {
      response: {
        object: 'response',
        status: 'failed',
        error: { code: status === 429 ? 'rate_limit_exceeded' : 'server_error', message },
        output: [],
        usage: null,
      },
    }),
  errorBody: (e) => ({
    error: { message: errorMessage(e), type: e.status === 429 ? 'rate_limit_exceeded' : 'server_error', param: null, code: null },
  }),
}
