// What the scripted upstream answers an agent, in each upstream protocol's own stream format:
// a text answer, a tool call, or a text answer cut off mid-stream. Usage is part of each answer
// so the suite can check the bill to the token.
import type { Behaviour } from '../helpers/fake-upstream.ts'

export type UpstreamProtocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses'
export interface Usage {
  input: number
  output: number
}
export type Turn = { text: string; usage: Usage } | { tool: { id: string; name: string; input: Record<string, unknown> }; usage: Usage }

const sse = (frames: unknown[], named: boolean): string =>
  frames.map((f) => `${named ? `event: ${(f as { type: string }).type}\n` : ''}data: ${JSON.stringify(f)}\n\n`).join('')

function chatFrames(turn: Turn): string {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-agent',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'upstream-model-name',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
  const body =
    'text' in turn
      ? [chunk({ role: 'assistant', content: '' }), chunk({ content: turn.text }), chunk({}, 'stop')]
      : [
          chunk({
            role: 'assistant',
            tool_calls: [{ index: 0, id: turn.tool.id, type: 'function', function: { name: turn.tool.name, arguments: '' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(turn.tool.input) } }] }),
          chunk({}, 'tool_calls'),
        ]
  const usage = {
    ...chunk({}),
    choices: [],
    usage: { prompt_tokens: turn.usage.input, completion_tokens: turn.usage.output, total_tokens: turn.usage.input + turn.usage.output },
  }
  return `${sse([...body, usage], false)}data: [DONE]\n\n`
}

function messagesFrames(turn: Turn): string {
  const block =
    'text' in turn
      ? [
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } },
        ]
      : [
          { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: turn.tool.id, name: turn.tool.name, input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.tool.input) } },
        ]
  const message = {
    id: 'msg_agent',
    type: 'message',
    role: 'assistant',
    model: 'upstream-model-name',
    content: [],
    stop_reason: null,
    stop_sequence: null,
  }
  return sse(
    [
      { type: 'message_start', message: { ...message, usage: { input_tokens: turn.usage.input, output_tokens: 1 } } },
      ...block,
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'text' in turn ? 'end_turn' : 'tool_use', stop_sequence: null },
        usage: { output_tokens: turn.usage.output },
      },
      { type: 'message_stop' },
    ],
    true,
  )
}

function responsesItem(turn: Turn, done: boolean): Record<string, unknown> {
  const status = done ? 'completed' : 'in_progress'
  if ('tool' in turn)
    return {
      id: 'fc_agent',
      type: 'function_call',
      status,
      call_id: turn.tool.id,
      name: turn.tool.name,
      arguments: done ? JSON.stringify(turn.tool.input) : '',
    }
  return {
    id: 'msg_agent',
    type: 'message',
    status,
    role: 'assistant',
    content: done ? [{ type: 'output_text', text: turn.text, annotations: [] }] : [],
  }
}

function responsesFrames(turn: Turn): string {
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: 'resp_agent',
    object: 'response',
    created_at: 1,
    status,
    model: 'upstream-model-name',
    output,
    usage,
  })
  const at = { item_id: responsesItem(turn, false).id, output_index: 0 }
  const middle =
    'tool' in turn
      ? [
          { type: 'response.function_call_arguments.delta', ...at, delta: JSON.stringify(turn.tool.input) },
          { type: 'response.function_call_arguments.done', ...at, arguments: JSON.stringify(turn.tool.input) },
        ]
      : [
          { type: 'response.content_part.added', ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
          { type: 'response.output_text.delta', ...at, content_index: 0, delta: turn.text },
          { type: 'response.output_text.done', ...at, content_index: 0, text: turn.text },
          { type: 'response.content_part.done', ...at, content_index: 0, part: { type: 'output_text', text: turn.text, annotations: [] } },
        ]
  const usage = {
    input_tokens: turn.usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: turn.usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: turn.usage.input + turn.usage.output,
  }
  const frames = [
    { type: 'response.created', response: response('in_progress', [], null) },
    { type: 'response.output_item.added', output_index: 0, item: responsesItem(turn, false) },
    ...middle,
    { type: 'response.output_item.done', output_index: 0, item: responsesItem(turn, true) },
    { type: 'response.completed', response: response('completed', [responsesItem(turn, true)], usage) },
  ]
  return sse(
    frames.map((f, i) => ({ ...f, sequence_number: i })),
    true,
  )
}

/** The exact SSE bytes of one answer in `protocol`. */
export function streamOf(protocol: UpstreamProtocol, turn: Turn): string {
  if (protocol === 'openai-chat') return chatFrames(turn)
  if (protocol === 'anthropic-messages') return messagesFrames(turn)
  return responsesFrames(turn)
}

/** The answer as the fake upstream's behaviour. */
export const answer = (protocol: UpstreamProtocol, turn: Turn): Behaviour => ({ kind: 'sse', text: streamOf(protocol, turn) })

/**
 * A text answer whose connection drops right after the frame that carries `prefix`: the client
 * has seen the start of the answer, and the stream never reaches its end (nor its usage, except
 * the input tokens a messages stream reports first).
 */
export function cutAnswer(protocol: UpstreamProtocol, prefix: string, usage: Usage): Behaviour {
  const full = streamOf(protocol, { text: prefix, usage })
  const sent = full.slice(0, full.indexOf('\n\n', full.indexOf(JSON.stringify(prefix))) + 2)
  return { kind: 'drop', text: sent, bytes: Buffer.byteLength(sent) }
}
