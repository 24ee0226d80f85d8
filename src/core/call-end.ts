// How a call ended (docs/api.md "What a call is billed", docs/failover.md "Who ended the call"):
// one value per call, decided once by the call's lifecycle (inference/call-life.ts) and read by
// transport, routing, the stream pipe, billing and metrics — never guessed from an exception.
// This module is the one place that turns an end into what is said of it: a thrown error
// classified into an end, an end into the error a client is answered with (one message per
// cause) and into the status and code its request log records, an abandoned call's included.
import { GatewayError } from './errors.ts'

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

/** A call whose instance died or lost the store: its lease expired before it settled (docs/drain.md). */
export type AbandonedEnd = { kind: 'abandoned' }

/**
 * Whose failure ended a call (docs/operators.md "Reports": errors are the upstream's or
 * Tollgate's failure, not the client's): the upstream's, Tollgate's own (its Redis or Postgres
 * did not answer, an internal error), or none — a completed call, one the client, its idle
 * deadline or a drain ended, and one refused for what it asked (a bad body, an unknown model,
 * 402, 429). Counted by this, never by the answer's status.
 */
export type Fault = 'upstream' | 'tollgate'

export function faultOf(end: EndCause | AbandonedEnd): Fault | null {
  // The instance that held the call stopped answering for it: Tollgate's own failure.
  if (end.kind === 'abandoned') return 'tollgate'
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

/**
 * The reason a call's own abort carries into an upstream attempt, so transport tells it apart
 * from its own timeout and from a network failure (as SDKs keep an abort apart from an error).
 */
export class CallEnded extends Error {
  constructor(readonly end: EndCause) {
    super(`the call ended: ${end.kind}`)
  }
}

/**
 * Whether the call's own end — not an upstream's or Tollgate's failure — stopped the work that
 * threw `e` (or aborted with `e` as its reason). A breaker, a retry or a fallback never counts it.
 */
export const endedByCaller = (e: unknown): e is CallEnded => e instanceof CallEnded

/** What was thrown, as a GatewayError: anything unexpected is INTERNAL, the original kept as its cause. */
export const asGatewayError = (e: unknown): GatewayError =>
  e instanceof GatewayError ? e : new GatewayError('INTERNAL', 'Internal error.', { cause: e })

/** The one answer while the instance drains (docs/drain.md), before or during a call. */
export const shuttingDown = (): GatewayError =>
  new GatewayError('SHUTTING_DOWN', 'This instance is shutting down; retry the request.', { headers: { 'retry-after': '1' } })

const UPSTREAM_FAILURES = new Set(['UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT', 'UPSTREAM_UNAVAILABLE'])

/** How a call that threw `e` before its answer ended: failed upstream (before any byte), or refused. */
export function endOfThrown(e: unknown): EndCause {
  if (endedByCaller(e)) return e.end
  const error = asGatewayError(e)
  return UPSTREAM_FAILURES.has(error.code) ? { kind: 'upstream_failed', error, afterFirstByte: false } : { kind: 'refused', error }
}

/** The log's codes of the caller's ends (endStatus): an attempt they stopped did not fail. */
export const CALLER_END_CODES = ['CLIENT_CLOSED', 'CLIENT_IDLE', 'SHUTTING_DOWN'] as const

/** The ends the caller's side brings: the client gone or idle, the instance draining. */
const CALLER_ENDS: ReadonlySet<EndCause['kind']> = new Set(['client_left', 'deadline', 'drain'])

/**
 * The error a call that threw `e` is answered with: its own end's when that end cut the work —
 * `e` is its CallEnded, or anything unexpected thrown once the caller's side ended it (a body read
 * failing because the client went away) — else what was thrown.
 */
export const answerError = (end: EndCause, e: unknown): GatewayError =>
  end.kind !== 'completed' && (endedByCaller(e) || (CALLER_ENDS.has(end.kind) && !(e instanceof GatewayError)))
    ? endError(end)
    : asGatewayError(e)

/** The error a client still there is answered with for an end that is not a completion (a stream's one error frame, a JSON error). */
export function endError(end: Exclude<EndCause, { kind: 'completed' }>): GatewayError {
  switch (end.kind) {
    case 'upstream_failed':
    case 'refused':
      return end.error
    case 'drain':
      return shuttingDown()
    case 'client_left':
    case 'deadline':
      return new GatewayError('CLIENT_CLOSED', 'The client closed the request.')
  }
}

/** The request log's status, error code and fault for an end (docs/api.md "What a call is billed"; docs/drain.md for abandoned calls). */
export function endStatus(end: EndCause | AbandonedEnd): { status: number; errorCode: string | null; fault: Fault | null } {
  return { ...endCode(end), fault: faultOf(end) }
}

function endCode(end: EndCause | AbandonedEnd): { status: number; errorCode: string | null } {
  switch (end.kind) {
    case 'completed':
      return { status: 200, errorCode: null }
    case 'upstream_failed':
      // After the first byte the client had a 200; the log says the stream failed.
      return { status: end.afterFirstByte ? 502 : end.error.status, errorCode: end.error.code }
    case 'refused':
      return { status: end.error.status, errorCode: end.error.code }
    case 'client_left':
      return { status: 499, errorCode: 'CLIENT_CLOSED' }
    case 'deadline':
      return { status: 499, errorCode: 'CLIENT_IDLE' }
    case 'drain':
      return { status: 503, errorCode: 'SHUTTING_DOWN' }
    case 'abandoned':
      return { status: 500, errorCode: 'ABANDONED' }
  }
}
