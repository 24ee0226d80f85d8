// The stream stage every stream runs (docs/architecture.md "One request"): upstream SSE events →
// the upstream adapter's decoder, which parses each event once (providers/<u>/wire.ts) → client
// frames, either through the inbound protocol's encoder (translation: canonical events) or its
// tee (same protocol: the upstream's frames rewritten, given the parsed chunk). Either way the
// decoder alone says the usage and its finality, completion, delivered output and upstream id,
// and an unreadable event is counted the same way.
import type { CEvent } from '../core/canonical.ts'
import { GatewayError } from '../core/errors.ts'
import type { FrameTee, FrameTransform, StreamEncoder } from '../core/frames.ts'
import type { SseEvent } from '../lib/sse/parse.ts'
import { DONE, type Done, type WireFailure } from '../lib/wire.ts'
import type { StreamDecoder } from '../providers/types.ts'

/** Unreadable events a stream may skip; one more fails it as malformed (docs/failover.md "Failure → behaviour"). */
export const MAX_UNREADABLE = 16

/** The stream's failure once too many events could not be read: an upstream failure of its own kind. */
export const malformedStream = (failure: WireFailure): GatewayError =>
  new GatewayError('UPSTREAM_ERROR', 'The upstream sent an unreadable stream.', {
    cause: failure,
    retryable: true,
    upstream: { kind: 'malformed' },
  })

/** The client frames of one read event, its canonical events given. */
type Frames<Chunk> = (ev: SseEvent, chunk: Chunk | Done, events: CEvent[]) => string

function decodedStage<Chunk>(decoder: StreamDecoder<Chunk>, frames: Frames<Chunk>, out: Pick<FrameTransform, 'close' | 'error'>) {
  let unreadable = 0
  const t: FrameTransform = {
    push(ev) {
      const read = decoder.parse(ev.data)
      if (!read.ok) {
        if (++unreadable > MAX_UNREADABLE) throw malformedStream(read.failure)
        return ''
      }
      const events = decoder.read(read.value)
      for (const e of events)
        if (e.type === 'error')
          // An error with a status class (a throttled stream: 429) keeps it (docs/failover.md "Failure → behaviour").
          throw new GatewayError('UPSTREAM_ERROR', 'The upstream model failed mid-stream.', {
            cause: e.message,
            ...(e.status !== undefined ? { upstream: { kind: 'status' as const, status: e.status } } : {}),
          })
      return frames(ev, read.value, events)
    },
    complete: () => decoder.complete(),
    close: out.close,
    error: out.error,
    usage: () => decoder.usage(),
    deliveredChars: () => decoder.deliveredChars(),
    upstreamId: () => decoder.upstreamId(),
    unreadable: () => unreadable,
  }
  return t
}

/** Translation: the decoder's canonical events through the inbound protocol's encoder. */
export function translateTransform<Chunk>(decoder: StreamDecoder<Chunk>, encoder: StreamEncoder): FrameTransform {
  const encode = (events: CEvent[]): string => {
    let out = ''
    for (const e of events) out += encoder.push(e)
    return out
  }
  return decodedStage(decoder, (_ev, _chunk, events) => encode(events), {
    // The decoder's closing events (chat's finish) precede the encoder's close.
    close: (svc) => encode(decoder.end()) + encoder.close(svc),
    error: (err) => encoder.error(err),
  })
}

/** Same protocol: the upstream's frames through the inbound protocol's tee, each chunk parsed once. */
export function teeTransform<Chunk>(decoder: StreamDecoder<Chunk>, tee: FrameTee<Chunk>): FrameTransform {
  // The [DONE] sentinel is never forwarded: a chat tee sends its own after svc.
  return decodedStage(decoder, (ev, chunk) => (chunk === DONE ? '' : tee.push(ev, chunk)), tee)
}
