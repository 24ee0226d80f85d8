// The stream stages protocols implement (docs/architecture.md): a StreamEncoder turns canonical
// events into client frames; a FrameTee rewrites a same-protocol upstream's frames. The stream
// stage (inference/stream-translate.ts) puts either behind the upstream's decoder as the
// FrameTransform the stream pipe runs. Each ends with exactly one closing sequence (with svc) or
// one error frame.
import type { CEvent } from './canonical.ts'
import type { GatewayError } from './errors.ts'
import type { ReportedUsage } from './usage.ts'
import type { SseEvent } from '../lib/sse/parse.ts'

export interface StreamEncoder {
  push(ev: CEvent): string
  close(svc: string): string
  error(err: GatewayError): string
}

/**
 * A same-protocol pass-through: the client frames of one upstream event, given the event's
 * chunk as the decoder parsed it (never parsed again). It only rewrites frames; what the stream
 * bills is the decoder's.
 */
export interface FrameTee<Chunk> {
  push(ev: SseEvent, chunk: Chunk): string
  close(svc: string): string
  error(err: GatewayError): string
}

/** A stream stage between upstream SSE events and client frames (translation or tee). */
export interface FrameTransform {
  /** Client frames for one upstream event; throws a GatewayError to fail the stream. */
  push(ev: SseEvent): string
  /** Whether the upstream signalled a complete answer. */
  complete(): boolean
  /** Closing frames, given the svc JSON computed from the final usage. */
  close(svc: string): string
  error(err: GatewayError): string
  /** The latest usage the upstream reported, and whether it is final (docs/api.md "What a call is billed"). */
  usage(): ReportedUsage | undefined
  deliveredChars(): number
  upstreamId(): string | undefined
  /** Upstream events skipped because they could not be read. */
  unreadable(): number
}
