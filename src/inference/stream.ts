// One streaming pipeline for every stream: upstream bytes → SSE events →
// a FrameTransform (translation or same-protocol tee) → client frames, with exactly one
// terminal: the transform's closing frames (carrying svc) or one error frame. One upstream read
// becomes at most one client write (no coalescing).
// An event that cannot be read (not JSON, cut JSON) is skipped and counted, never forwarded
// (docs/failover.md "Failure → behaviour"); a stream of little else fails once MAX_UNREADABLE pass.
// The client's body is a direct stream (Bun's `type: 'direct'`): each read's frames are written
// to the response as one string and flushed, with no queue of chunks in between.
// Backpressure (docs/drain.md): while the response's buffer is full the write is awaited before
// the upstream is read again, so at most one chunk waits here per stream. The upstream idle limit
// runs only while waiting for the upstream; the client idle limit only while waiting for the
// client. A gone or idle client, an idle upstream, or the end of a drain's grace aborts the upstream.
import { GatewayError } from '../core/errors.ts'
import type { Usage } from '../core/usage.ts'
import type { FrameTransform } from '../core/frames.ts'
import { SseParser } from '../lib/sse/parse.ts'
import type { Cut } from './inflight.ts'
import type { BodyReader } from '../providers/transport/body-reader.ts'

export interface StreamOutcome {
  /** client_idle: the client read nothing for clientIdleMs and was cut. */
  end: 'completed' | 'failed' | 'disconnected' | 'client_idle'
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
  /** Cut the client after this long without it taking the next chunk (unset: never). */
  clientIdleMs?: number
  /** When aborted (end of a drain's grace), the stream ends with the protocol's error event. */
  cut?: Cut
  abortUpstream: () => void
  /** Called once; for a completed stream returns the svc JSON. */
  finish: (o: StreamOutcome) => string
}

const MAX_UNREADABLE = 16
/** Bun's constructor takes a direct source; the DOM typings the project loads do not say so. */
const DirectStream = ReadableStream as unknown as new (source: Bun.DirectUnderlyingSource<Uint8Array>) => ReadableStream<Uint8Array>

export function pipeStream(reader: BodyReader, t: FrameTransform, opts: PipeOptions): ReadableStream<Uint8Array> {
  const parser = new SseParser()
  let started = false
  let finished = false
  let timedOut = false
  let unreadable = 0
  // One timer per limit for the whole stream, re-armed per read with refresh() (Bun re-arms a
  // fired timer that way, never a cleared one). Each limit runs only while its side is awaited:
  // a timer firing while its side is not awaited does nothing.
  let awaitingUpstream = false
  let awaitingClient = false
  let upstreamIdle: Timer | undefined
  let clientIdle: Timer | undefined
  let sink: ReadableStreamDirectController | undefined
  const outcome = (end: StreamOutcome['end'], error?: GatewayError): StreamOutcome => ({
    end,
    usage: t.usage(),
    deliveredChars: t.deliveredChars(),
    started,
    unreadable,
    upstreamId: t.upstreamId?.(),
    error,
  })
  const done = (end: StreamOutcome['end'], error?: GatewayError) => {
    finished = true
    clearTimeout(upstreamIdle)
    clearTimeout(clientIdle)
    opts.cut?.unwatch(onCut)
    return opts.finish(outcome(end, error))
  }
  /** The body's last frames, then its end. */
  const end = (s: ReadableStreamDirectController, frames: string) => {
    s.write(frames)
    s.close()
  }
  const fail = (s: ReadableStreamDirectController, out: string, err: GatewayError) => {
    // Frames of the failing read still reach the client, so they count as delivered.
    if (out.length > 0) started = true
    opts.abortUpstream()
    done('failed', err)
    end(s, out + t.error(err))
  }
  const stopUpstream = () => {
    opts.abortUpstream()
    reader.cancel().catch(() => {})
  }
  const disconnected = () => {
    if (finished) return
    stopUpstream()
    done('disconnected')
  }
  function onCut() {
    if (finished || !sink) return
    awaitingClient = false
    fail(sink, '', new GatewayError('SHUTTING_DOWN', 'The gateway is restarting; the answer was cut short. Retry the request.'))
  }
  opts.cut?.watch(onCut)
  const onUpstreamIdle = () => {
    if (!awaitingUpstream || finished) return
    timedOut = true
    opts.abortUpstream()
  }
  const onClientIdle = () => {
    if (!awaitingClient || finished) return
    stopUpstream()
    done('client_idle')
    sink?.close(new Error('client idle'))
  }
  const readUpstream = () => {
    awaitingUpstream = true
    if (upstreamIdle) upstreamIdle.refresh()
    else upstreamIdle = setTimeout(onUpstreamIdle, opts.idleTimeoutMs)
    return reader.read()
  }
  const awaitClient = () => {
    if (opts.clientIdleMs === undefined) return
    awaitingClient = true
    if (clientIdle) clientIdle.refresh()
    else clientIdle = setTimeout(onClientIdle, opts.clientIdleMs)
  }
  /** One upstream read at a time, its frames written before the next read. */
  const run = async (s: ReadableStreamDirectController): Promise<void> => {
    for (;;) {
      let result: Awaited<ReturnType<typeof reader.read>>
      try {
        result = await readUpstream()
      } catch (cause) {
        if (finished) return
        return fail(
          s,
          '',
          timedOut
            ? new GatewayError('UPSTREAM_TIMEOUT', 'The upstream model stopped responding mid-stream.', { cause })
            : new GatewayError('UPSTREAM_ERROR', 'The upstream connection failed mid-stream.', { cause }),
        )
      } finally {
        awaitingUpstream = false
      }
      if (finished) return
      let out = ''
      for (const ev of result.done ? parser.end() : parser.push(result.value)) {
        try {
          out += t.push(ev)
        } catch (e) {
          if (e instanceof GatewayError) return fail(s, out, e)
          if (++unreadable > MAX_UNREADABLE)
            return fail(s, out, new GatewayError('UPSTREAM_ERROR', 'The upstream sent an unreadable stream.', { cause: e }))
        }
      }
      if (result.done) {
        if (!t.complete())
          return fail(s, out, new GatewayError('UPSTREAM_ERROR', 'The upstream stream ended before the answer was complete.'))
        const svc = done('completed')
        return end(s, out + t.close(svc))
      }
      if (out.length === 0) continue
      started = true
      const written = s.write(out)
      // 0: the client is gone (its cancel may come later or not at all).
      if (written === 0) return disconnected()
      s.flush()
      if (typeof written === 'number') continue
      awaitClient()
      const drained = await written
      awaitingClient = false
      if (finished) return
      if (drained === 0) return disconnected()
    }
  }
  return new DirectStream({
    type: 'direct',
    pull(s) {
      sink = s
      if (opts.cut?.aborted) return onCut()
      return run(s)
    },
    cancel: disconnected,
  })
}
