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
// client.
// How the stream ends is the call's (inference/call-life.ts): the pipe reports what it sees —
// completion, an upstream failure, a client gone or idle — and ends the stream in one place,
// `ended`, for whichever end stands, its own or one from outside (the drain's grace, the client's
// signal).
import type { CallTally } from '../billing/bill.ts'
import type { EndCause } from '../core/call-end.ts'
import { GatewayError, type UpstreamFailure } from '../core/errors.ts'
import type { FrameTransform } from '../core/frames.ts'
import { SseParser } from '../lib/sse/parse.ts'
import type { BodyChunk, BodyReader } from '../providers/transport/body-reader.ts'
import type { EventSource } from '../providers/types.ts'
import type { CallLife } from './call-life.ts'

/** What the stream knows when it ends, for settlement and the log. */
export interface StreamTally extends CallTally {
  /** Upstream events skipped because they could not be read. */
  unreadable: number
  /** The upstream's own id for the answer, when the stream named one. */
  upstreamId: string | undefined
}

export interface PipeOptions {
  life: Pick<CallLife, 'end' | 'onEnd' | 'ended'>
  idleTimeoutMs: number
  /** Cut the client after this long without it taking the next chunk (unset: never). */
  clientIdleMs?: number
  /** How the upstream's bytes become events (the adapter's framing); SSE by default. */
  events?: EventSource
  /** Called once, when the call ends; for a completed stream returns the svc JSON. */
  finish: (end: EndCause, tally: StreamTally) => string
}

const MAX_UNREADABLE = 16
/** Bun's constructor takes a direct source; the DOM typings the project loads do not say so. */
const DirectStream = ReadableStream as unknown as new (source: Bun.DirectUnderlyingSource<Uint8Array>) => ReadableStream<Uint8Array>

/**
 * An upstream failure after the first byte. It counts on the route's breakers (docs/failover.md
 * "Circuit breaker"): a stream gone silent on the gateway's, any other on the route's.
 */
function failedMidStream(code: 'UPSTREAM_ERROR' | 'UPSTREAM_TIMEOUT', message: string, cause?: unknown, said?: UpstreamFailure): EndCause {
  // An error the upstream sent with a status class (a throttled stream: 429) keeps it.
  const upstream = said ?? { kind: code === 'UPSTREAM_TIMEOUT' ? ('timeout' as const) : ('body' as const) }
  return { kind: 'upstream_failed', error: new GatewayError(code, message, { cause, retryable: true, upstream }), afterFirstByte: true }
}
/** The one error frame of a stream that did not complete (the client is still there to read it). */
function terminalError(end: Exclude<EndCause, { kind: 'completed' | 'client_left' | 'deadline' }>): GatewayError {
  if (end.kind === 'drain')
    return new GatewayError('SHUTTING_DOWN', 'The gateway is restarting; the answer was cut short. Retry the request.')
  return end.error
}

export function pipeStream(reader: BodyReader, t: FrameTransform, opts: PipeOptions): ReadableStream<Uint8Array> {
  const { life } = opts
  const parser = opts.events ?? new SseParser()
  let started = false
  let unreadable = 0
  /** Frames of the read that ended the stream, written before its terminal. */
  let pending = ''
  /** The body's last frames when the stream ended before the client first pulled. */
  let parked: string | undefined
  // One timer per limit for the whole stream, re-armed per read with refresh() (Bun re-arms a
  // fired timer that way, never a cleared one). Each limit runs only while its side is awaited:
  // a timer firing while its side is not awaited does nothing.
  let awaitingUpstream = false
  let awaitingClient = false
  let upstreamIdle: Timer | undefined
  let clientIdle: Timer | undefined
  let sink: ReadableStreamDirectController | undefined

  const tally = (): StreamTally => ({
    reported: t.usage(),
    started,
    deliveredChars: t.deliveredChars(),
    unreadable,
    upstreamId: t.upstreamId?.(),
  })
  /** The pipe's own report: `frames` of the deciding read go out before the terminal. */
  const conclude = (end: EndCause, frames = '') => {
    pending = frames
    life.end(end)
  }
  /** The stream's one ending, whoever decided it. */
  const ended = (end: EndCause) => {
    clearTimeout(upstreamIdle)
    clearTimeout(clientIdle)
    const frames = pending
    pending = ''
    // Frames of the failing read still reach the client, so they count as delivered.
    if (frames.length > 0) started = true
    if (end.kind !== 'completed') reader.cancel().catch(() => {})
    const svc = opts.finish(end, tally())
    if (end.kind === 'client_left') return
    if (end.kind === 'deadline') return sink?.close(new Error('client idle'))
    const last = frames + (end.kind === 'completed' ? t.close(svc) : t.error(terminalError(end)))
    if (!sink) parked = last
    else writeLast(sink, last)
  }
  const writeLast = (s: ReadableStreamDirectController, frames: string) => {
    s.write(frames)
    s.close()
  }
  const onUpstreamIdle = () => {
    if (awaitingUpstream) conclude(failedMidStream('UPSTREAM_TIMEOUT', 'The upstream model stopped responding mid-stream.'))
  }
  const onClientIdle = () => {
    if (awaitingClient) conclude({ kind: 'deadline' })
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
  /** The client frames of one upstream read; undefined once the read ended the stream. */
  const translate = (result: BodyChunk): string | undefined => {
    let out = ''
    for (const ev of result.done ? parser.end() : parser.push(result.value)) {
      try {
        out += t.push(ev)
      } catch (e) {
        // An error event the upstream sent (its detail stays in the cause, for the log).
        if (e instanceof GatewayError) return void conclude(failedMidStream('UPSTREAM_ERROR', e.message, e.cause, e.extra.upstream), out)
        if (++unreadable > MAX_UNREADABLE)
          return void conclude(failedMidStream('UPSTREAM_ERROR', 'The upstream sent an unreadable stream.', e), out)
      }
    }
    if (!result.done) return out
    if (t.complete()) conclude({ kind: 'completed' }, out)
    else conclude(failedMidStream('UPSTREAM_ERROR', 'The upstream stream ended before the answer was complete.'), out)
  }
  /** One upstream read at a time, its frames written before the next read. */
  const run = async (s: ReadableStreamDirectController): Promise<void> => {
    while (!life.ended) {
      let result: BodyChunk
      try {
        result = await readUpstream()
      } catch (cause) {
        // A read cut by the call's own end (client gone, drain, idle limit) is not the upstream's failure.
        if (!life.ended) conclude(failedMidStream('UPSTREAM_ERROR', 'The upstream connection failed mid-stream.', cause))
        return
      } finally {
        awaitingUpstream = false
      }
      if (life.ended) return
      const out = translate(result)
      if (out === undefined || out.length === 0) continue
      started = true
      const written = s.write(out)
      // 0: the client is gone (its cancel may come later or not at all).
      if (written === 0) return conclude({ kind: 'client_left' })
      s.flush()
      if (typeof written === 'number') continue
      awaitClient()
      const drained = await written
      awaitingClient = false
      if (drained === 0) conclude({ kind: 'client_left' })
    }
  }
  life.onEnd(ended)
  return new DirectStream({
    type: 'direct',
    pull(s) {
      sink = s
      if (parked !== undefined) return writeLast(s, parked)
      return run(s)
    },
    cancel: () => conclude({ kind: 'client_left' }),
  })
}
