// A local OpenAI-chat-compatible upstream for the quick start: it echoes the last user message,
// streams it word by word, and reports usage like the real API (include_usage honoured).

function lastUserText(body: any): string {
  const msgs: any[] = Array.isArray(body?.messages) ? body.messages : []
  const last = [...msgs].reverse().find((m) => m?.role === 'user')
  const c = last?.content
  return typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: any) => p?.text ?? '').join(' ') : ''
}

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4))

export function startDemoUpstream(port = 0) {
  return Bun.serve({
    port,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) return new Response('not found', { status: 404 })
      const body = (await req.json()) as any
      const answer = `Hello from the Tollgate demo upstream. You said: ${lastUserText(body)}`
      const id = `chatcmpl-demo${Date.now()}`
      const created = Math.floor(Date.now() / 1000)
      const usage = { prompt_tokens: tokens(JSON.stringify(body.messages ?? [])), completion_tokens: tokens(answer), total_tokens: 0 }
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens
      if (!body.stream) {
        return Response.json({
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
          usage,
        })
      }
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
      const enc = new TextEncoder()
      const words = answer.split(/(?<= )/)
      return new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(enc.encode(chunk({ role: 'assistant', content: '' }, null)))
            for (const w of words) {
              c.enqueue(enc.encode(chunk({ content: w }, null)))
              await Bun.sleep(15)
            }
            c.enqueue(enc.encode(chunk({}, 'stop')))
            if (body.stream_options?.include_usage)
              c.enqueue(enc.encode(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`))
            c.enqueue(enc.encode('data: [DONE]\n\n'))
            c.close()
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    },
  })
}
