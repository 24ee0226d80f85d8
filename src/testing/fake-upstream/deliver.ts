// How a scripted reply reaches the caller: the wait before the headers, an HTTP error, the JSON
// answer, or the stream's frames with their pace — and the scripted faults (an error event after
// N characters, a cut after N bytes, a hang). Every wait ends when the caller goes away.
import type { Reply } from './reply.ts'
import type { Answer, Frame, Wire } from './wires/wire.ts'

const enc = new TextEncoder()

/** Resolves after `ms`, or at once when the caller has gone (then `false`). */
function pause(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  if (!ms) return Promise.resolve(true)
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', gone)
      resolve(ok)
    }
    const gone = () => done(false)
    const timer = setTimeout(() => done(true), ms)
    signal.addEventListener('abort', gone, { once: true })
  })
}

const gone = (signal: AbortSignal) =>
  signal.aborted ? Promise.resolve() : new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))

/** Sends text, then — when `cutAfterBytes` is reached — the first bytes of the rest and a cut connection. */
class Sender {
  sent = 0
  cut = false
  constructor(
    private c: ReadableStreamDefaultController<Uint8Array>,
    private limit: number | undefined,
  ) {}
  async send(data: string | Uint8Array): Promise<boolean> {
    if (this.cut) return false
    const bytes = typeof data === 'string' ? enc.encode(data) : data
    if (this.limit === undefined || this.sent + bytes.length <= this.limit) {
      this.c.enqueue(bytes)
      this.sent += bytes.length
      return true
    }
    if (this.limit > this.sent) this.c.enqueue(bytes.slice(0, this.limit - this.sent))
    this.cut = true
    // What was sent leaves first; then an errored body ends the response without its last chunk,
    // which the caller sees as a cut connection. No reason given: Bun would print it as an error.
    await Bun.sleep(20)
    this.c.error()
    return false
  }
}

function body(headers: Record<string, string>, run: (s: Sender) => Promise<void>, cutAfterBytes: number | undefined): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      async start(c) {
        const s = new Sender(c, cutAfterBytes)
        await run(s)
        if (!s.cut)
          try {
            c.close()
          } catch {}
      },
    }),
    { headers },
  )
}

function streamFrames(wire: Wire, frames: Frame[], reply: Reply, signal: AbortSignal): Response {
  const fail = (s: Sender) => s.send(wire.streamError('The fake upstream failed mid-stream, as scripted.', reply.errorEventStatus))
  return body(
    { 'content-type': wire.streamType ?? 'text/event-stream', 'cache-control': 'no-cache' },
    async (s) => {
      let chars = 0
      let first = true
      for (const f of frames) {
        if (f.chars && first) {
          first = false
          if (!(await pause(reply.firstTokenMs, signal))) return
          // errorAfterChars 0: the error comes before any text.
          if (reply.errorAfterChars === 0) return void (await fail(s))
        } else if (!(await pause(reply.frameDelayMs, signal))) return
        if (!(await s.send(f.data))) return
        chars += f.chars ?? 0
        if (reply.errorAfterChars !== undefined && f.chars && chars >= reply.errorAfterChars) return void (await fail(s))
      }
    },
    reply.cutAfterBytes,
  )
}

export async function deliver(wire: Wire, stream: boolean, answer: Answer, reply: Reply, signal: AbortSignal): Promise<Response> {
  if (reply.hang) {
    await gone(signal)
    return new Response(null, { status: 499 })
  }
  if (!(await pause(reply.latencyMs, signal))) return new Response(null, { status: 499 })
  const e = reply.error
  if (e) {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...wire.errorHeaders?.(e) }
    if (e.retryAfter !== undefined) {
      headers['retry-after'] = String(e.retryAfter)
      headers['retry-after-ms'] = String(Math.round(e.retryAfter * 1000))
    }
    return new Response(JSON.stringify(wire.errorBody(e)), { status: e.status, headers })
  }
  if (stream) return streamFrames(wire, wire.frames(answer), reply, signal)
  if (!(await pause(reply.firstTokenMs, signal))) return new Response(null, { status: 499 })
  const json = JSON.stringify(wire.json(answer))
  if (reply.cutAfterBytes === undefined) return new Response(json, { headers: { 'content-type': 'application/json' } })
  return body({ 'content-type': 'application/json' }, async (s) => void (await s.send(json)), reply.cutAfterBytes)
}
