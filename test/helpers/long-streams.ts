// Long answers of each upstream protocol, built for the call-end tests: 8,000 characters of text
// in 80 deltas (the last one carries END_MARK), then the protocol's closing events with the final
// usage — and its own mid-stream error event. Shapes follow the recorded fixtures; the cloud
// wires carry the same text: Bedrock's Anthropic wire as AWS event-stream chunks of the Anthropic
// events, Vertex's as Anthropic's SSE, Converse in its documented events.
import type { GatewayProtocol } from '../../src/core/gateway.ts'
import { CONVERSE_EXCEPTION } from './converse-answers.ts'
import { bedrockChunks, eventFrame, exceptionFrame } from './fake-clouds.ts'

export type UpstreamProtocol = GatewayProtocol

export const END_MARK = 'ENDMARK'
export const TEXT_CHARS = 8_000
/** The final count each stream reports; Anthropic's message_start says 1 output token first. */
export const FINAL = { input: 321, output: 2_000 }

const DELTAS = Array.from({ length: 80 }, (_, i) =>
  i === 79 ? `${'y'.repeat(93)}${END_MARK}` : `${String(i).padStart(2, '0')}${'x'.repeat(98)}`,
)

export interface LongStream {
  /** Every event up to and including the last text delta. */
  head: string | Uint8Array
  /** The events that complete the answer (with the final usage). */
  tail: string | Uint8Array
  /** The protocol's own error event. */
  errorEvent: string | Uint8Array
}

/** Two parts of a stream as one (text or event-stream bytes). */
export function joinParts(a: string | Uint8Array, b: string | Uint8Array): string | Uint8Array {
  if (typeof a === 'string' && typeof b === 'string') return a + b
  const enc = new TextEncoder()
  return new Uint8Array(Buffer.concat([typeof a === 'string' ? enc.encode(a) : a, typeof b === 'string' ? enc.encode(b) : b]))
}

/** A part's length in bytes (what a drop after it cuts at). */
export const byteLength = (a: string | Uint8Array): number => (typeof a === 'string' ? new TextEncoder().encode(a).length : a.length)

const bytes = (frames: Uint8Array[]) => new Uint8Array(Buffer.concat(frames))
const eventsOf = (sse: string) =>
  sse
    .split('\n\n')
    .filter(Boolean)
    .map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)))

/** Anthropic's long stream as Bedrock sends it: one event-stream chunk per event. */
function bedrockAnthropic(): LongStream {
  const a = anthropic()
  return {
    head: bytes(bedrockChunks(eventsOf(a.head as string))),
    tail: bytes(bedrockChunks(eventsOf(a.tail as string))),
    errorEvent: exceptionFrame('modelStreamErrorException', 'The model failed mid-stream.'),
  }
}

function converse(): LongStream {
  return {
    head: bytes([
      eventFrame('messageStart', { role: 'assistant' }),
      ...DELTAS.map((text) => eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text } })),
    ]),
    tail: bytes([
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
      eventFrame('messageStop', { stopReason: 'end_turn' }),
      eventFrame('metadata', { usage: { inputTokens: FINAL.input, outputTokens: FINAL.output, totalTokens: FINAL.input + FINAL.output } }),
    ]),
    errorEvent: CONVERSE_EXCEPTION,
  }
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
  switch (p) {
    case 'anthropic-messages':
    case 'vertex-anthropic':
      return anthropic()
    case 'bedrock-anthropic':
      return bedrockAnthropic()
    case 'bedrock-converse':
      return converse()
    case 'openai-chat':
      return chat()
    case 'openai-responses':
      return responses()
  }
}

/** A non-streaming answer of each protocol with FINAL usage. */
export function longJson(p: UpstreamProtocol): Record<string, unknown> {
  const text = DELTAS.join('')
  if (p === 'bedrock-converse')
    return {
      output: { message: { role: 'assistant', content: [{ text }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: FINAL.input, outputTokens: FINAL.output, totalTokens: FINAL.input + FINAL.output },
    }
  if (p === 'anthropic-messages' || p === 'bedrock-anthropic' || p === 'vertex-anthropic')
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
