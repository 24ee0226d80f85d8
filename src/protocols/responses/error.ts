// Responses error envelope: {error:{message, type, param, code}}; validation detail in
// error.details.issues (docs/api.md "Error envelopes").
import type { GatewayError } from '../../core/errors.ts'

function classify(err: GatewayError): { status: number; type: string; code: string | null } {
  switch (err.code) {
    case 'VALIDATION_FAILED':
    case 'BAD_REQUEST':
    case 'UPSTREAM_REJECTED':
      return { status: 400, type: 'invalid_request_error', code: err.code === 'VALIDATION_FAILED' ? 'invalid_value' : null }
    case 'CONTEXT_LENGTH_EXCEEDED':
      return { status: 400, type: 'invalid_request_error', code: 'context_length_exceeded' }
    case 'PAYLOAD_TOO_LARGE':
      return { status: 413, type: 'invalid_request_error', code: 'request_too_large' }
    case 'UNAUTHORIZED':
      return { status: 401, type: 'authentication_error', code: 'invalid_api_key' }
    case 'PAYMENT_REQUIRED':
      return { status: 402, type: 'insufficient_quota', code: 'insufficient_quota' }
    case 'FORBIDDEN':
      return { status: 403, type: 'permission_error', code: 'permission_denied' }
    case 'MODEL_NOT_FOUND':
      return { status: 404, type: 'invalid_request_error', code: 'model_not_found' }
    case 'MODEL_UNAVAILABLE':
      return { status: 503, type: 'server_error', code: 'model_unavailable' }
    case 'RATE_LIMITED':
      return { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' }
    case 'UPSTREAM_TIMEOUT':
    case 'UPSTREAM_ERROR':
      return { status: 502, type: 'server_error', code: 'upstream_error' }
    case 'SERVICE_UNAVAILABLE':
    case 'SHUTTING_DOWN':
    case 'UPSTREAM_UNAVAILABLE':
      return { status: 503, type: 'server_error', code: 'service_unavailable' }
    case 'CLIENT_CLOSED':
      return { status: 499, type: 'server_error', code: null }
    default:
      return { status: 500, type: 'server_error', code: 'internal_error' }
  }
}

export function responsesErrorBody(err: GatewayError): { status: number; body: string } {
  const { status, type, code } = classify(err)
  const error: Record<string, unknown> = { message: err.message, type, param: err.extra.param ?? null, code }
  if (err.extra.issues) error.details = { issues: err.extra.issues }
  return { status, body: JSON.stringify({ error }) }
}

/**
 * A failed stream's last two events: `response.failed` carrying the response with its error (what
 * clients such as Codex CLI show), then the `error` event the protocol requires last
 * (docs/api.md "Streams that fail"). `response` is the stream's response object so far.
 */
export function responsesStreamError(err: GatewayError, sequence: number, response: Record<string, unknown>): string {
  const { code } = classify(err)
  const failed = { ...response, status: 'failed', error: { code: code ?? 'server_error', message: err.message } }
  return (
    `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', sequence_number: sequence, response: failed })}\n\n` +
    `event: error\ndata: ${JSON.stringify({ type: 'error', code, message: err.message, param: null, sequence_number: sequence + 1 })}\n\n`
  )
}
