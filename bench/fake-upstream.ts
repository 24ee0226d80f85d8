// Deterministic fake OpenAI-chat upstream for the benchmark (never the bottleneck): a fixed
// chat.completion with usage, or an SSE stream (role chunk → N deltas → finish → usage → [DONE]).
// A model name ending in "-<n>ms" adds that much latency before the answer; one ending in
// "-pace<ms>x<n>" streams n deltas, one every <ms> (a slow model holding the stream open).
// GET /stats: {"open": paced streams open now, "peak": most open at once since the last read}.
// POST …/embeddings: one fixed 1,536-dimension vector per input, as floats or base64, with usage.
export {}
const port = Number(process.argv[2] ?? 0)
const DELTAS = Number(process.env.BENCH_DELTAS ?? 20)
const enc = new TextEncoder()

const completion = (model: string) =>
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! This is a fixed benchmark answer.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
  })

function streamBody(model: string, deltas = DELTAS): Uint8Array[] {
  const chunk = (delta: object, finish: string | null) =>
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"${model}","choices":[{"index":0,"delta":${JSON.stringify(delta)},"finish_reason":${finish ? `"${finish}"` : 'null'}}]}\n\n`
  const parts = [chunk({ role: 'assistant', content: '' }, null)]
  for (let i = 0; i < deltas; i++) parts.push(chunk({ content: `tok${i} ` }, null))
  parts.push(chunk({}, 'stop'))
  parts.push(
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"${model}","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":${deltas},"total_tokens":${12 + deltas}}}\n\n`,
  )
  parts.push('data: [DONE]\n\n')
  return parts.map((p) => enc.encode(p))
}

const VECTOR = Array.from({ length: 1536 }, (_, i) => Number(Math.fround(Math.sin(i + 1) / 40).toPrecision(9)))
const VECTOR_BASE64 = Buffer.from(new Float32Array(VECTOR).buffer).toString('base64')
const embeddingAnswers = new Map<string, string>()

/** The answer for `count` inputs in `format` (built once per shape: the upstream is never the bottleneck). */
function embeddings(model: string, count: number, format: string): string {
  const key = `${model} ${count} ${format}`
  let text = embeddingAnswers.get(key)
  if (text === undefined) {
    const embedding = format === 'base64' ? VECTOR_BASE64 : VECTOR
    const data = Array.from({ length: count }, (_, index) => ({ object: 'embedding', index, embedding }))
    text = JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: count * 10, total_tokens: count * 10 } })
    embeddingAnswers.set(key, text)
  }
  return text
}

const paced = { open: 0, peak: 0 }

/** Role chunk at once, then one part every `intervalMs`; the finish, usage and [DONE] together. */
function pacedStream(parts: Uint8Array[], intervalMs: number): Response {
  let closed = false
  return new Response(
    new ReadableStream({
      type: 'direct',
      async pull(c: any) {
        paced.open++
        paced.peak = Math.max(paced.peak, paced.open)
        try {
          const tail = parts.length - 3
          for (let i = 0; i < parts.length && !closed; i++) {
            if (i > 0 && i < tail) await Bun.sleep(intervalMs)
            c.write(parts[i]!)
            await c.flush()
          }
          c.close()
        } finally {
          paced.open--
        }
      },
      cancel() {
        closed = true
      },
    } as any),
    { headers: { 'content-type': 'text/event-stream' } },
  )
}

const server = Bun.serve({
  port,
  hostname: '127.0.0.1',
  idleTimeout: 0,
  async fetch(req) {
    if (req.method === 'GET' && new URL(req.url).pathname === '/stats') {
      const answer = Response.json(paced)
      paced.peak = paced.open
      return answer
    }
    const body = (await req.json()) as { model: string; stream?: boolean; input?: unknown; encoding_format?: string }
    if (new URL(req.url).pathname.endsWith('/embeddings')) {
      const count = Array.isArray(body.input) ? body.input.length : 1
      return new Response(embeddings(body.model, count, body.encoding_format ?? 'float'), {
        headers: { 'content-type': 'application/json' },
      })
    }
    const delay = /-(\d+)ms$/.exec(body.model)
    if (delay) await Bun.sleep(Number(delay[1]))
    if (!body.stream) return new Response(completion(body.model), { headers: { 'content-type': 'application/json' } })
    const pace = /-pace(\d+)x(\d+)$/.exec(body.model)
    if (pace) return pacedStream(streamBody(body.model, Number(pace[2])), Number(pace[1]))
    const parts = streamBody(body.model)
    return new Response(
      new ReadableStream({
        type: 'direct',
        async pull(c: any) {
          for (const p of parts) {
            c.write(p)
            await c.flush()
          }
          c.close()
        },
      } as any),
      { headers: { 'content-type': 'text/event-stream' } },
    )
  },
})
console.log(`READY ${server.port}`)
