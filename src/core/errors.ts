// One error type for the whole gateway (docs/api.md "Status and code table"): a canonical code that knows its
// HTTP status and whether failover may retry it. Protocols render it in their own envelope;
// `cause` carries upstream detail for the log only, never for a client.

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_FAILED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'CONFLICT'
  | 'PAYMENT_REQUIRED'
  | 'NOT_FOUND'
  | 'MODEL_NOT_FOUND'
  | 'MODEL_UNAVAILABLE'
  | 'PAYLOAD_TOO_LARGE'
  /** A console or admin body not sent as JSON (docs/security.md "Input"). */
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_REJECTED'
  /** Our own Redis or Postgres is unreachable: 503 with Retry-After (docs/operations.md). */
  | 'SERVICE_UNAVAILABLE'
  | 'CONTEXT_LENGTH_EXCEEDED'
  | 'INTERNAL'
  /** The instance is draining (SIGTERM): retry on another (docs/drain.md). */
  | 'SHUTTING_DOWN'
  /** Every route of the model rests behind an open breaker: 503 with Retry-After (docs/failover.md). */
  | 'UPSTREAM_UNAVAILABLE'
  /** The client went away; the answer reaches no one, the log and metrics say 499. */
  | 'CLIENT_CLOSED'

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CONFLICT: 409,
  PAYMENT_REQUIRED: 402,
  NOT_FOUND: 404,
  MODEL_NOT_FOUND: 503,
  MODEL_UNAVAILABLE: 503,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UPSTREAM_ERROR: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_REJECTED: 400,
  SERVICE_UNAVAILABLE: 503,
  CONTEXT_LENGTH_EXCEEDED: 400,
  INTERNAL: 500,
  SHUTTING_DOWN: 503,
  UPSTREAM_UNAVAILABLE: 503,
  CLIENT_CLOSED: 499,
}

/**
 * `connect`: no HTTP answer (refused, reset, not HTTP); `timeout`: no headers in time;
 * `first-token`: headers but no content event in time; `status`: an HTTP error answer;
 * `body`: an answer that could not be read; `malformed`: a stream of events that could not be
 * read (providers/<u>/wire.ts).
 */
export interface UpstreamFailure {
  kind: 'connect' | 'timeout' | 'first-token' | 'status' | 'body' | 'malformed'
  status?: number
  /** Retry-After / retry-after-ms of the answer, in milliseconds. */
  retryAfterMs?: number
}

export interface ValidationIssue {
  path: string
  message: string
}

export class GatewayError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      cause?: unknown
      /** Failover may try the next gateway (5xx, timeout, connection failure before first byte). */
      retryable?: boolean
      issues?: ValidationIssue[]
      headers?: Record<string, string>
      param?: string
      /** How an upstream attempt failed, for the retry policy and the breaker (docs/failover.md). */
      upstream?: UpstreamFailure
    } = {},
  ) {
    super(message, { cause: extra.cause })
    this.status = STATUS[code]
  }

  get retryable(): boolean {
    return this.extra.retryable === true
  }
}

/** Failures the same request cannot escape by being sent again: the official OpenAI and Anthropic
 *  SDKs would otherwise retry some of them (503/529/409) with backoff, costing the caller seconds. */
const NO_CLIENT_RETRY: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'CONFLICT',
  'PAYMENT_REQUIRED',
  'NOT_FOUND',
  'MODEL_NOT_FOUND',
  'MODEL_UNAVAILABLE',
  'PAYLOAD_TOO_LARGE',
  'UPSTREAM_REJECTED',
  'CONTEXT_LENGTH_EXCEEDED',
])

/** `x-should-retry: false` (honoured by the official SDKs) where a retry cannot help; 429/5xx upstream failures keep the SDK's own policy. */
export const clientRetryHeaders = (err: GatewayError): Record<string, string> =>
  NO_CLIENT_RETRY.has(err.code) ? { 'x-should-retry': 'false' } : {}

/** The one answer while a backing service is down: fast, retryable, no detail for the client. */
export const serviceUnavailable = (cause: unknown): GatewayError =>
  new GatewayError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly.', {
    cause,
    headers: { 'retry-after': '1' },
  })
