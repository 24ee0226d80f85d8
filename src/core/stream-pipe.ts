// One streaming pipeline for every stream: upstream bytes → SSE events →
// a FrameTransform (translation or same-protocol tee) → client frames, with exactly one
// terminal: the transform's closing frames (carrying svc) or one error frame. One upstream read
// becomes at most one client write (no coalescing); an idle upstream or a gone client aborts it.
// An event that cannot be read (not JSON, cut JSON) is skipped and counted, never forwarded
// (docs/failover.md "Tolerant streams"); a stream of little else fails once MAX_UNREADABLE pass.
import { GatewayError } from './errors.ts'
import type { Usage } from './usage.ts'
import type { FrameTransform } from './stream-encoder.ts'
import { SseParser } from '../lib/sse/parse.ts'

export interface StreamOutcome {
  end: 'completed' | 'failed' | 'disconnected'
  usage: Usage | undefined
  deliveredChars: number
  started: boolean
  /** Upstream events skipped because they could not be read. */
  unreadable: number
  /** The upstream's own id for the answer, when the stream named one. */
  upstreamId: string | undefined
  error?: GatewayError
}

export interface PipeOptions {
  idleTimeoutMs: number
  abortUpstream: () => void
  /** Called once; for a completed stream returns the svc JSON. */
  finish: (o: StreamOutcome) => string
}

const encoder = new TextEncoder()
const MAX_UNREADABLE = 16

export function pipeStream(upstream: ReadableStream<Uint8Array>, t: FrameTransform, opts: PipeOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader()
  const parser = new SseParser()
  let started = false
  let finished = false
  let timedOut = false
  let unreadable = 0
  const idle = setTimeout(() => {
    timedOut = true
    opts.abortUpstream()
  }, opts.idleTimeoutMs)
  const outcome = (end: StreamOutcome['end'], error?: GatewayError): StreamOutcome => ({ end, usage: t.usage(), deliveredChars: t.deliveredChars(), started, unreadable, upstreamId: t.upstreamId?.(), error })
  const done = (end: StreamOutcome['end'], error?: GatewayError) => {
    finished = true
    clearTimeout(idle)
    return opts.finish(outcome(end, error))
  }
  const fail = (c: ReadableStreamDefaultController<Uint8Array>, out: string, err: GatewayError) => {
    // Frames of the failing read still reach the client, so they count as delivered.
    if (out.length > 0) started = true
    opts.abortUpstream()
    done('failed', err)
    c.enqueue(encoder.encode(out + t.error(err)))
    c.close()
  }
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      for (;;) {
        let result: Awaited<ReturnType<typeof reader.read>>
        try {
          result = await reader.read()
        } catch (cause) {
          if (finished) return
          return fail(c, '', timedOut ? new GatewayError('UPSTREAM_TIMEOUT', 'The upstream model stopped responding mid-stream.', { cause }) : new GatewayError('UPSTREAM_ERROR', 'The upstream connection failed mid-stream.', { cause }))
        }
        if (finished) return
        idle.refresh()
        let out = ''
        for (const ev of result.done ? parser.end() : parser.push(result.value)) {
          try {
            out += t.push(ev)
          } catch (e) {
            if (e instanceof GatewayError) return fail(c, out, e)
            if (++unreadable > MAX_UNREADABLE) return fail(c, out, new GatewayError('UPSTREAM_ERROR', 'The upstream sent an unreadable stream.', { cause: e }))
          }
        }
        if (result.done) {
          if (!t.complete()) return fail(c, out, new GatewayError('UPSTREAM_ERROR', 'The upstream stream ended before the answer was complete.'))
          const svc = done('completed')
          c.enqueue(encoder.encode(out + t.close(svc)))
          c.close()
          return
        }
        if (out.length > 0) {
          started = true
          c.enqueue(encoder.encode(out))
          return
        }
      }
    },
    cancel() {
      if (finished) return
      opts.abortUpstream()
      reader.cancel().catch(() => {})
      done('disconnected')
    },
  })
}
