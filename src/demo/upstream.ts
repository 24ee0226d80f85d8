// A local upstream for the quick start that speaks all three protocols (chat completions,
// Anthropic messages, OpenAI responses): it echoes the last user message, streams it word by
// word, and reports usage like the real APIs (chat honours include_usage).

/** What the demo reads of a request in any of the three protocols. */
interface DemoRequest {
  model?: unknown
  stream?: unknown
  stream_options?: { include_usage?: unknown }
  messages?: unknown
  input?: unknown
  system?: unknown
  instructions?: string
}

type Turn = { role?: unknown; content?: unknown } | null

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.map((p: { text?: unknown } | null) => (typeof p?.text === 'string' ? p.text : '')).join(' ') : ''
}

function lastUserText(body: DemoRequest): string {
  const turns: Turn[] = Array.isArray(body?.messages)
    ? body.messages
    : typeof body?.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : Array.isArray(body?.input)
        ? body.input
        : []
  const last = [...turns].reverse().find((m) => m?.role === 'user')
  return textOf(last?.content)
}

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4))
const enc = new TextEncoder()

/** Frames sent one by one, a short pause between them, as a real upstream streams. */
function sse(frames: string[]): Response {
  return new Response(
    new ReadableStream({
      async start(c) {
        for (const f of frames) {
          c.enqueue(enc.encode(f))
          await Bun.sleep(15)
        }
        c.close()
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  )
}

const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

function chat(body: DemoRequest, answer: string, words: string[], input: number): Response {
  const id = `chatcmpl-demo${Date.now()}`
  const created = Math.floor(Date.now() / 1000)
  const usage = { prompt_tokens: input, completion_tokens: tokens(answer), total_tokens: input + tokens(answer) }
  if (!body.stream)
    return Response.json({
      id,
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
      usage,
    })
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  const usageChunk = body.stream_options?.include_usage
    ? [`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`]
    : []
  return sse([
    chunk({ role: 'assistant', content: '' }, null),
    ...words.map((w) => chunk({ content: w }, null)),
    chunk({}, 'stop'),
    ...usageChunk,
    'data: [DONE]\n\n',
  ])
}

function messages(body: DemoRequest, answer: string, words: string[], input: number): Response {
  const id = `msg_demo${Date.now()}`
  const usage = { input_tokens: input, output_tokens: tokens(answer), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  if (!body.stream)
    return Response.json({
      id,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text: answer }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    })
  return sse([
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
    ...words.map((w) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: w } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage }),
    event('message_stop', {}),
  ])
}

function responses(body: DemoRequest, answer: string, words: string[], input: number): Response {
  const id = `resp_demo${Date.now()}`
  const item = `msg_demo${Date.now()}`
  const created_at = Math.floor(Date.now() / 1000)
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: tokens(answer),
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + tokens(answer),
  }
  const part = { type: 'output_text', text: answer, annotations: [] }
  const done = { id: item, type: 'message', status: 'completed', role: 'assistant', content: [part] }
  const response = (status: string, output: object[], u: object | null) => ({
    id,
    object: 'response',
    created_at,
    status,
    error: null,
    incomplete_details: null,
    model: body.model,
    output,
    usage: u,
  })
  if (!body.stream) return Response.json(response('completed', [done], usage))
  let seq = 0
  const ev = (type: string, data: object) => event(type, { sequence_number: seq++, ...data })
  const at = { item_id: item, output_index: 0, content_index: 0 }
  return sse([
    ev('response.created', { response: response('in_progress', [], null) }),
    ev('response.in_progress', { response: response('in_progress', [], null) }),
    ev('response.output_item.added', { output_index: 0, item: { ...done, status: 'in_progress', content: [] } }),
    ev('response.content_part.added', { ...at, part: { ...part, text: '' } }),
    ...words.map((w) => ev('response.output_text.delta', { ...at, delta: w })),
    ev('response.output_text.done', { ...at, text: answer }),
    ev('response.content_part.done', { ...at, part }),
    ev('response.output_item.done', { output_index: 0, item: done }),
    ev('response.completed', { response: response('completed', [done], usage) }),
  ])
}

const ROUTES = { '/chat/completions': chat, '/messages': messages, '/responses': responses }

export function startDemoUpstream(port = 0) {
  return Bun.serve({
    port,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      const route = Object.entries(ROUTES).find(([suffix]) => path.endsWith(suffix))
      if (req.method !== 'POST' || !route) return new Response('not found', { status: 404 })
      const body = (await req.json()) as DemoRequest
      const answer = `Hello from the Tollgate demo upstream. You said: ${lastUserText(body)}`
      const input = tokens(
        JSON.stringify(body.messages ?? body.input ?? []) +
          (typeof body.system === 'string' ? body.system : '') +
          (body.instructions ?? ''),
      )
      return route[1](body, answer, answer.split(/(?<= )/), input)
    },
  })
}
