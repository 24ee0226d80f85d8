// The stream stages protocols implement (docs/architecture.md): a StreamEncoder turns canonical
// events into client frames; a FrameTransform sits between upstream SSE events and client frames.
// Either ends with exactly one closing sequence (with svc) or one error frame.
import type { CEvent } from './canonical.ts'
import type { GatewayError } from './errors.ts'
import type { ReportedUsage } from './usage.ts'
import type { SseEvent } from '../lib/sse/parse.ts'

export interface StreamEncoder {
  push(ev: CEvent): string
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
  upstreamId?(): string
}
