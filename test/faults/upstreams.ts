// Upstream behaviours the fault suites share: a chat stream that keeps sending (so no idle limit
// cuts it) until its caller goes away, and a lazily generated long stream (nothing is produced
// ahead of what the gateway reads).
import type { Behaviour } from '../helpers/fake-upstream.ts'

const enc = new TextEncoder()
export const chunkFrame = (content: string) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'upstream-secret-model', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
const FINAL = `data: ${JSON.stringify({ id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'upstream-secret-model', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 1000, total_tokens: 1009 } })}\n\ndata: [DONE]\n\n`

/** Sends a content frame every `everyMs` until the gateway goes away. */
export function tickingStream(everyMs: number, onStart?: () => void): Behaviour {
  return {
    kind: 'fn',
    handle(req) {
      onStart?.()
      let timer: Timer | undefined
      return new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(enc.encode(chunkFrame('Hel')))
            timer = setInterval(() => {
              try {
                c.enqueue(enc.encode(chunkFrame('lo ')))
              } catch {
                clearInterval(timer)
              }
            }, everyMs)
            req.signal.addEventListener('abort', () => clearInterval(timer))
          },
          cancel: () => clearInterval(timer),
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    },
  }
}

/**
 * A stream of about `totalBytes` in 64 KiB reads, generated on demand (pull), ending with usage
 * and [DONE]. `onAbort` counts streams the gateway abandoned before their end, `onEnd` those it
 * read to the end.
 */
export function longStream(totalBytes: number, onAbort: () => void, onEnd: () => void = () => {}): Extract<Behaviour, { kind: 'fn' }> {
  const frame = enc.encode(chunkFrame('x'.repeat(400)))
  const perRead = Math.max(1, Math.floor(65_536 / frame.length))
  const read = new Uint8Array(frame.length * perRead)
  for (let i = 0; i < perRead; i++) read.set(frame, i * frame.length)
  return {
    kind: 'fn',
    handle(req) {
      let sent = 0
      let ended = false
      req.signal.addEventListener('abort', () => {
        if (!ended) onAbort()
        ended = true
      })
      return new Response(
        new ReadableStream(
          {
            pull(c) {
              if (sent >= totalBytes) {
                ended = true
                onEnd()
                c.enqueue(enc.encode(FINAL))
                c.close()
                return
              }
              sent += read.length
              c.enqueue(read)
            },
            cancel() {
              if (!ended) onAbort()
              ended = true
            },
          },
          { highWaterMark: 0 },
        ),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    },
  }
}

/** `frames` content frames, one every `everyMs`, then usage (9 in, 1000 out) and [DONE]. */
export function finiteTicking(frames: number, everyMs: number): Behaviour {
  return {
    kind: 'fn',
    handle: () =>
      new Response(
        new ReadableStream({
          async start(c) {
            for (let i = 0; i < frames; i++) {
              c.enqueue(enc.encode(chunkFrame('tick ')))
              await Bun.sleep(everyMs)
            }
            c.enqueue(enc.encode(FINAL))
            c.close()
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  }
}

/** Never answers; counts the calls whose caller went away (the gateway aborted them). */
export function hangCounting(onAbort: () => void): Behaviour {
  return {
    kind: 'fn',
    handle: (req) =>
      new Promise<Response>((resolve) =>
        req.signal.addEventListener('abort', () => {
          onAbort()
          resolve(new Response('late'))
        }),
      ),
  }
}
