// The fake's Anthropic messages wire: a message with thinking, text and tool_use blocks, or its
// event stream (message_start … message_stop); a failed stream ends with an `error` event, and a
// 529 is Anthropic's `overloaded_error`.
import type { ScriptedUsage } from '../reply.ts'
import { type Answer, errorMessage, type Frame, lastUserText, sseEvent, stringOr, type Wire } from './wire.ts'

const usageOf = (u: ScriptedUsage) => ({
  input_tokens: u.input,
  output_tokens: u.output,
  cache_creation_input_tokens: u.cacheWrite ?? 0,
  cache_read_input_tokens: u.cacheRead ?? 0,
})

const SIGNATURE = 'fake-signature'

const stopOf = (a: Answer) => (a.toolCalls.length ? 'tool_use' : 'end_turn')

const toolBlock = (c: Answer['toolCalls'][number]) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) })

const errorType = (status: number) =>
  status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error'

function systemText(system: unknown): string {
  if (typeof system === 'string') return system
  return Array.isArray(system) ? system.map((b: { text?: unknown } | null) => stringOr(b?.text, '')).join(' ') : ''
}

export const anthropicMessages: Wire = {
  name: 'anthropic-messages',
  suffix: '/messages',
  read: (body) => ({
    model: stringOr(body?.model, ''),
    stream: body?.stream === true,
    prompt: lastUserText(body?.messages),
    inputText: JSON.stringify(body?.messages ?? []) + systemText(body?.system),
  }),
  json: (a) => ({
    id: a.id,
    type: 'message',
    role: 'assistant',
    model: a.model,
    content: [
      ...(a.reasoning ? [{ type: 'thinking', thinking: a.reasoning, signature: SIGNATURE }] : []),
      ...(a.text || !a.toolCalls.length ? [{ type: 'text', text: a.text }] : []),
      ...a.toolCalls.map(toolBlock),
    ],
    stop_reason: stopOf(a),
    stop_sequence: null,
    ...(a.usage ? { usage: usageOf(a.usage) } : {}),
  }),
  frames(a) {
    const start = { id: a.id, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null }
    const frames: Frame[] = [
      { sse: sseEvent('message_start', { message: a.usage ? { ...start, usage: { ...usageOf(a.usage), output_tokens: 1 } } : start }) },
    ]
    let index = 0
    const block = (content_block: object, deltas: Frame[]) => {
      frames.push({ sse: sseEvent('content_block_start', { index, content_block }) }, ...deltas)
      frames.push({ sse: sseEvent('content_block_stop', { index }) })
      index++
    }
    const delta = (d: object, chars?: number): Frame => ({ sse: sseEvent('content_block_delta', { index, delta: d }), chars })
    if (a.reasoning)
      block({ type: 'thinking', thinking: '' }, [
        delta({ type: 'thinking_delta', thinking: a.reasoning }),
        delta({ type: 'signature_delta', signature: SIGNATURE }),
      ])
    if (a.text || !a.toolCalls.length)
      block(
        { type: 'text', text: '' },
        a.pieces.map((p) => delta({ type: 'text_delta', text: p }, p.length)),
      )
    for (const c of a.toolCalls)
      block({ type: 'tool_use', id: c.id, name: c.name, input: {} }, [delta({ type: 'input_json_delta', partial_json: c.arguments })])
    const usage = a.usage ? { usage: usageOf(a.usage) } : {}
    frames.push({ sse: sseEvent('message_delta', { delta: { stop_reason: stopOf(a), stop_sequence: null }, ...usage }) })
    frames.push({ sse: sseEvent('message_stop', {}) })
    return frames
  },
  streamError: (message) => sseEvent('error', { error: { type: 'overloaded_error', message } }),
  errorBody: (e) => ({ type: 'error', error: { type: errorType(e.status), message: errorMessage(e) } }),
}
