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

/**
 * Whose failure ended a call (docs/operators.md "Reports": errors are the upstream's or
 * Tollgate's failure, not the client's): the upstream's, Tollgate's own (its Redis or Postgres
 * did not answer, an internal error), or none — a completed call, one the client, its idle
 * deadline or a drain ended, and one refused for what it asked (a bad body, an unknown model,
 * 402, 429). Counted by this, never by the answer's status.
 */
export type Fault = 'upstream' | 'tollgate'

export function faultOf(end: EndCause): Fault | null {
  if (end.kind === 'upstream_failed') return 'upstream'
  if (end.kind === 'refused') return refusalFault(end.error)
  return null
}

const OWN_FAILURES: ReadonlySet<string> = new Set(['SERVICE_UNAVAILABLE', 'INTERNAL'])

/** A refusal is Tollgate's failure only when Tollgate itself could not serve. */
export const refusalFault = (error: GatewayError): Fault | null => (OWN_FAILURES.has(error.code) ? 'tollgate' : null)

/**
 * One upstream attempt of a call, as its log detail shows it (docs/operators.md "Models and
 * gateways"): the route (gateway, public model, upstream model) and why it was left — `ok` for
 * the attempt that answered, else the error code, with the HTTP status or the failure's kind.
 */
export interface UpstreamAttempt {
  gateway: string
  model: string
  upstreamModel: string
  outcome: string
  /** The upstream's HTTP status, when it answered one. */
  status?: number
  /** connect, timeout, first-token, status or body (core/errors.ts UpstreamFailure). */
  failure?: string
  ms: number
}

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
