// Anthropic's error envelope: {type:"error", error:{type, message}} with its native types.
import type { GatewayError } from '../../core/errors.ts'

export function messagesErrorType(err: GatewayError): { type: string; status: number } {
  switch (err.code) {
    case 'VALIDATION_FAILED':
    case 'BAD_REQUEST':
    case 'UPSTREAM_REJECTED':
    case 'CONTEXT_LENGTH_EXCEEDED':
      return { type: 'invalid_request_error', status: 400 }
    case 'PAYLOAD_TOO_LARGE':
      return { type: 'request_too_large', status: 413 }
    case 'UNAUTHORIZED':
      return { type: 'authentication_error', status: 401 }
    case 'PAYMENT_REQUIRED':
      return { type: 'billing_error', status: 402 }
    case 'FORBIDDEN':
      return { type: 'permission_error', status: 403 }
    case 'MODEL_NOT_FOUND':
      return { type: 'not_found_error', status: 404 }
    case 'NOT_FOUND':
      return { type: 'not_found_error', status: 404 }
    case 'MODEL_UNAVAILABLE':
      return { type: 'overloaded_error', status: 529 }
    case 'RATE_LIMITED':
      return { type: 'rate_limit_error', status: 429 }
    case 'UPSTREAM_TIMEOUT':
    case 'UPSTREAM_ERROR':
      return { type: 'api_error', status: 502 }
    case 'SERVICE_UNAVAILABLE':
    case 'SHUTTING_DOWN':
      return { type: 'api_error', status: 503 }
    case 'UPSTREAM_UNAVAILABLE':
      return { type: 'overloaded_error', status: 503 }
    case 'CLIENT_CLOSED':
      return { type: 'api_error', status: 499 }
    default:
      return { type: 'api_error', status: 500 }
  }
}

export function messagesErrorBody(err: GatewayError): { status: number; body: string } {
  const { type, status } = messagesErrorType(err)
  return { status, body: JSON.stringify({ type: 'error', error: { type, message: err.message } }) }
}

export const messagesStreamError = (err: GatewayError): string =>
  `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: messagesErrorType(err).type, message: err.message } })}\n\n`
