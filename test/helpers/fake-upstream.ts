// A deterministic fake upstream (Bun.serve) for tests and the benchmark. Each request is
// answered by the next scripted behaviour for its gateway path, or by the default behaviour:
// replay a fixture (JSON or exact SSE bytes, optionally split and paced), fail with a status,
// hang (timeout), reset the connection, or drop mid-stream. A stream's `text` may be bytes (an AWS
// event stream).

export type Behaviour =
  | { kind: 'json'; body: unknown; status?: number; headers?: Record<string, string> }
  | { kind: 'sse'; text: string | Uint8Array; chunkSize?: number; delayMs?: number; headers?: Record<string, string> }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers; counted in `aborted` once the client goes away. */
  | { kind: 'hang' }
  | { kind: 'reset' }
  /** Sends the first `bytes` of the SSE text, then destroys the connection. */
  | { kind: 'drop'; text: string | Uint8Array; bytes: number }
  /** Sends `text` then keeps the stream open until the client goes away. */
  | { kind: 'stall'; text: string | Uint8Array }
  | { kind: 'fn'; handle: (req: Request, body: any) => Response | Promise<Response> }

export interface SeenRequest {
  path: string
  headers: Record<string, string>
  body: any
  /** performance.now() when the request arrived (for delays between attempts). */
  at: number
}

export interface FakeUpstream {
  url: string
  port: number
  /** Requests received, in order. */
  seen: SeenRequest[]
  /** Queue behaviours for the next requests (FIFO); when empty, `fallback` answers. */
  script(...b: Behaviour[]): void
  fallback: Behaviour
  /** Streams whose client went away (aborted) — for disconnect tests. */
  aborted: number
  /** Resolves once `aborted` reaches `count` (an event, not a poll). */
  whenAborted(count: number): Promise<void>
  stop(): void
}

const enc = new TextEncoder()
const bytesOf = (text: string | Uint8Array) => (typeof text === 'string' ? enc.encode(text) : text)

function sseResponse(
  text: string | Uint8Array,
  chunkSize: number | undefined,
  delayMs: number | undefined,
  headers: Record<string, string> | undefined,
): Response {
  const bytes = bytesOf(text)
  const size = chunkSize ?? bytes.length
  return new Response(
    new ReadableStream({
      async start(c) {
        for (let i = 0; i < bytes.length; i += size) {
          c.enqueue(bytes.slice(i, i + size))
          if (delayMs) await Bun.sleep(delayMs)
        }
        c.close()
      },
    }),
    { headers: { 'content-type': 'text/event-stream', ...headers } },
  )
}

export function startFakeUpstream(fallback: Behaviour = { kind: 'status', status: 500 }): FakeUpstream {
  const queue: Behaviour[] = []
  let abortWaiters: { count: number; resolve: () => void }[] = []
  const noteAbort = () => {
    state.aborted++
    for (const w of abortWaiters) if (state.aborted >= w.count) w.resolve()
    abortWaiters = abortWaiters.filter((w) => state.aborted < w.count)
  }
  const state: FakeUpstream = {
    url: '',
    port: 0,
    seen: [],
    fallback,
    aborted: 0,
    whenAborted: (count) =>
      state.aborted >= count ? Promise.resolve() : new Promise((resolve) => void abortWaiters.push({ count, resolve })),
    script: (...b) => void queue.push(...b),
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(req, srv) {
      const at = performance.now()
      const text = await req.text()
      let body: any = text
      try {
        body = JSON.parse(text)
      } catch {}
      state.seen.push({ path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body, at })
      const b = queue.shift() ?? state.fallback
      switch (b.kind) {
        case 'json':
          return new Response(typeof b.body === 'string' ? b.body : JSON.stringify(b.body), {
            status: b.status ?? 200,
            headers: { 'content-type': 'application/json', ...b.headers },
          })
        case 'sse':
          return sseResponse(b.text, b.chunkSize, b.delayMs, b.headers)
        case 'status':
          return new Response(
            JSON.stringify(b.body ?? { error: { message: 'fake upstream failure at upstream.example.internal', type: 'server_error' } }),
            {
              status: b.status,
              headers: { 'content-type': 'application/json', ...b.headers },
            },
          )
        case 'hang':
          await new Promise((resolve) => req.signal.addEventListener('abort', resolve))
          noteAbort()
          return new Response('late')
        case 'reset':
          srv.timeout(req, 1)
          await Bun.sleep(1_500)
          return new Response('late')
        case 'drop': {
          const bytes = bytesOf(b.text).slice(0, b.bytes)
          return new Response(
            new ReadableStream({
              async start(c) {
                c.enqueue(bytes)
                await Bun.sleep(20)
                c.error(new Error('dropped'))
              },
            }),
            { headers: { 'content-type': 'text/event-stream' } },
          )
        }
        case 'stall':
          return new Response(
            new ReadableStream({
              start(c) {
                c.enqueue(bytesOf(b.text))
                req.signal.addEventListener('abort', () => {
                  noteAbort()
                  try {
                    c.close()
                  } catch {}
                })
              },
              cancel() {
                noteAbort()
              },
            }),
            { headers: { 'content-type': 'text/event-stream' } },
          )
        case 'fn':
          return b.handle(req, body)
      }
    },
  })
  state.port = server.port!
  state.url = `http://127.0.0.1:${server.port}`
  return state
}
