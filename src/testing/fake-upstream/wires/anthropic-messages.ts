// The fake's Anthropic messages wire: a message with thinking, text and tool_use blocks, or its
// event stream (message_start … message_stop); a failed stream ends with an `error` event, and a
// 529 is Anthropic's `overloaded_error`. Bedrock's and Vertex's Claude wires answer with the same
// message and events (anthropicMessage, anthropicEvents), framed their own way.
import type { ScriptedUsage } from '../reply.ts'
import { type Answer, errorMessage, type Frame, lastUserText, sseEvent, stringOr, type Wire, endingIn } from './wire.ts'

const usageOf = (u: ScriptedUsage) => ({
  input_tokens: u.input,
  output_tokens: u.output,
  cache_creation_input_tokens: u.cacheWrite ?? 0,
  cache_read_input_tokens: u.cacheRead ?? 0,
})

const SIGNATURE = 'fake-signature'

const stopOf = (a: Answer) => (a.toolCalls.length ? 'tool_use' : 'end_turn')

const toolBlock = (c: Answer['toolCalls'][number]) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) })

const errorType = (status: number | undefined) =>
  status === undefined
    ? 'overloaded_error'
    : status === 429
      ? 'rate_limit_error'
      : status === 529
        ? 'overloaded_error'
        : status >= 500
          ? 'api_error'
          : 'invalid_request_error'

function systemText(system: unknown): string {
  if (typeof system === 'string') return system
  return Array.isArray(system) ? system.map((b: { text?: unknown } | null) => stringOr(b?.text, '')).join(' ') : ''
}

/** One Anthropic stream event before its framing: its type, its data, and the answer text it carries. */
export interface AnthropicEvent {
  type: string
  data: Record<string, unknown>
  chars?: number
}

export const anthropicMessage = (a: Answer) => ({
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
})

export function anthropicEvents(a: Answer): AnthropicEvent[] {
  const start = { id: a.id, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null }
  const events: AnthropicEvent[] = [
    { type: 'message_start', data: { message: a.usage ? { ...start, usage: { ...usageOf(a.usage), output_tokens: 1 } } : start } },
  ]
  let index = 0
  const block = (content_block: object, deltas: AnthropicEvent[]) => {
    events.push({ type: 'content_block_start', data: { index, content_block } }, ...deltas)
    events.push({ type: 'content_block_stop', data: { index } })
    index++
  }
  const delta = (d: object, chars?: number): AnthropicEvent => ({ type: 'content_block_delta', data: { index, delta: d }, chars })
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
  events.push({ type: 'message_delta', data: { delta: { stop_reason: stopOf(a), stop_sequence: null }, ...usage } })
  events.push({ type: 'message_stop', data: {} })
  return events
}

/** The messages body's model, stream ask and input (Bedrock and Vertex name the model and stream in the path instead). */
export const readAnthropic = (body: any) => ({
  model: stringOr(body?.model, ''),
  stream: body?.stream === true,
  prompt: lastUserText(body?.messages),
  inputText: JSON.stringify(body?.messages ?? []) + systemText(body?.system),
})

export const anthropicMessages: Wire = {
  name: 'anthropic-messages',
  ...endingIn('/messages'),
  read: readAnthropic,
  json: anthropicMessage,
  frames: (a) => anthropicEvents(a).map((e): Frame => ({ data: sseEvent(e.type, e.data), chars: e.chars })),
  streamError: (message, status) => sseEvent('error', { error: { type: errorType(status), message } }),
  errorBody: (e) => ({ type: 'error', error: { type: errorType(e.status), message: errorMessage(e) } }),
}
