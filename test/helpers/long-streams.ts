// Long answers of each upstream protocol, built for the call-end tests: 8,000 characters of text
// in 80 deltas (the last one carries END_MARK), then the protocol's closing events with the final
// usage — and its own mid-stream error event. Shapes follow the recorded fixtures.
export type UpstreamProtocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses'

export const END_MARK = 'ENDMARK'
export const TEXT_CHARS = 8_000
/** The final count each stream reports; Anthropic's message_start says 1 output token first. */
export const FINAL = { input: 321, output: 2_000 }

const DELTAS = Array.from({ length: 80 }, (_, i) =>
  i === 79 ? `${'y'.repeat(93)}${END_MARK}` : `${String(i).padStart(2, '0')}${'x'.repeat(98)}`,
)

export interface LongStream {
  /** Every event up to and including the last text delta. */
  head: string
  /** The events that complete the answer (with the final usage). */
  tail: string
  /** The protocol's own error event. */
  errorEvent: string
}

const ev = (event: string | undefined, data: unknown) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`

function anthropic(): LongStream {
  const usage = { input_tokens: FINAL.input, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
  const message = {
    id: 'msg_long',
    type: 'message',
    role: 'assistant',
    model: 'up-model',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  }
  return {
    head:
      ev('message_start', { type: 'message_start', message }) +
      ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      DELTAS.map((text) => ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })).join(
        '',
      ),
    tail:
      ev('content_block_stop', { type: 'content_block_stop', index: 0 }) +
      ev('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: FINAL.output },
      }) +
      ev('message_stop', { type: 'message_stop' }),
    errorEvent: ev('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
  }
}

function chat(): LongStream {
  const base = { id: 'chatcmpl-long', object: 'chat.completion.chunk', created: 1, model: 'up-model' }
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    ev(undefined, { ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] })
  return {
    head: delta({ role: 'assistant', content: '' }) + DELTAS.map((content) => delta({ content })).join(''),
    tail:
      delta({}, 'stop') +
      ev(undefined, {
        ...base,
        choices: [],
        usage: { prompt_tokens: FINAL.input, completion_tokens: FINAL.output, total_tokens: FINAL.input + FINAL.output },
      }) +
      'data: [DONE]\n\n',
    errorEvent: ev(undefined, {
      ...base,
      error: { code: 502, message: 'Provider returned error' },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    }),
  }
}

function responses(): LongStream {
  const response = (status: string, usage: unknown, output: unknown[]) => ({
    id: 'resp_long',
    object: 'response',
    created_at: 1,
    status,
    model: 'up-model',
    output,
    usage,
  })
  const item = { id: 'msg_long', type: 'message', status: 'in_progress', role: 'assistant', content: [] }
  const text = DELTAS.join('')
  const done = { ...item, status: 'completed', content: [{ type: 'output_text', annotations: [], text }] }
  let seq = 0
  const e = (type: string, data: Record<string, unknown>) => ev(type, { type, sequence_number: seq++, ...data })
  const head =
    e('response.created', { response: response('in_progress', null, []) }) +
    e('response.in_progress', { response: response('in_progress', null, []) }) +
    e('response.output_item.added', { output_index: 0, item }) +
    e('response.content_part.added', {
      item_id: 'msg_long',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', annotations: [], text: '' },
    }) +
    DELTAS.map((delta) => e('response.output_text.delta', { item_id: 'msg_long', output_index: 0, content_index: 0, delta })).join('')
  const usage = {
    input_tokens: FINAL.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: FINAL.output,
    output_tokens_details: { reasoning_tokens: 0 },
  }
  const errorEvent = ev('error', {
    type: 'error',
    sequence_number: seq,
    code: 'server_error',
    message: 'The server had an error',
    param: null,
  })
  const tail =
    e('response.output_text.done', { item_id: 'msg_long', output_index: 0, content_index: 0, text }) +
    e('response.content_part.done', { item_id: 'msg_long', output_index: 0, content_index: 0, part: done.content[0] }) +
    e('response.output_item.done', { output_index: 0, item: done }) +
    e('response.completed', { response: response('completed', usage, [done]) })
  return { head, tail, errorEvent }
}

export function longStream(p: UpstreamProtocol): LongStream {
  return p === 'anthropic-messages' ? anthropic() : p === 'openai-chat' ? chat() : responses()
}

/** A non-streaming answer of each protocol with FINAL usage. */
export function longJson(p: UpstreamProtocol): Record<string, unknown> {
  const text = DELTAS.join('')
  if (p === 'anthropic-messages')
    return {
      id: 'msg_long',
      type: 'message',
      role: 'assistant',
      model: 'up-model',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: FINAL.input, output_tokens: FINAL.output },
    }
  if (p === 'openai-chat')
    return {
      id: 'chatcmpl-long',
      object: 'chat.completion',
      created: 1,
      model: 'up-model',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: FINAL.input, completion_tokens: FINAL.output, total_tokens: FINAL.input + FINAL.output },
    }
  return {
    id: 'resp_long',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'up-model',
    output: [
      {
        id: 'msg_long',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], text }],
      },
    ],
    usage: { input_tokens: FINAL.input, output_tokens: FINAL.output },
  }
}
