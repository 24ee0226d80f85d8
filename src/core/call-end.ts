// How a call ended (docs/api.md "What a call is billed", docs/failover.md "Who ended the call"):
// one value per call, decided once by the call's lifecycle (inference/call-life.ts) and read by
// transport, routing, the stream pipe, billing and metrics — never guessed from an exception.
import type { GatewayError } from './errors.ts'

export type EndCause =
  | { kind: 'completed' }
  /** The upstream failed: before the client's first byte (failover exhausted) or after it (cut, error event, idle). */
  | { kind: 'upstream_failed'; error: GatewayError; afterFirstByte: boolean }
  /** The client went away. */
  | { kind: 'client_left' }
  /** The client took nothing for the client idle timeout and was cut (CLIENT_IDLE). */
  | { kind: 'deadline' }
  /** The drain's grace ended while the call was open (docs/drain.md). */
  | { kind: 'drain' }
  /** Tollgate refused the call, or the upstream refused the request itself (400, context length). */
  | { kind: 'refused'; error: GatewayError }

export type EndKind = EndCause['kind']

/** Ends the call's side decided: a breaker, a retry or a retry counter never sees them. */
export const endedByCaller = (c: EndCause): boolean => c.kind === 'client_left' || c.kind === 'deadline' || c.kind === 'drain'

/**
 * The reason a call's own abort carries into an upstream attempt, so transport tells it apart
 * from its own timeout and from a network failure (as SDKs keep an abort apart from an error).
 */
export class CallEnded extends Error {
  constructor(readonly end: EndCause) {
    super(`the call ended: ${end.kind}`)
  }
}
