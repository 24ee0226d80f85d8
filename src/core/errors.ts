// One error type for the whole gateway (STYLE 5, TensorZero): a canonical code that knows its
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
  | 'RATE_LIMITED'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_REJECTED'
  | 'INTERNAL'
  /** The instance is draining (SIGTERM): retry on another (docs/drain.md). */
  | 'SHUTTING_DOWN'

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
  RATE_LIMITED: 429,
  UPSTREAM_ERROR: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_REJECTED: 400,
  INTERNAL: 500,
  SHUTTING_DOWN: 503,
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
    } = {},
  ) {
    super(message, { cause: extra.cause })
    this.status = STATUS[code]
  }

  get retryable(): boolean {
    return this.extra.retryable === true
  }
}

export const isGatewayError = (e: unknown): e is GatewayError => e instanceof GatewayError
