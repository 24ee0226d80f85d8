// Chat-completions error envelope (docs/api.md "Error envelopes"): {status:"error", error:{code, message}}.
import type { GatewayError } from '../../core/errors.ts'

/** Canonical code → chat code and status (docs/api.md "Status and code table": an unknown model is 503 on chat). */
function chatCode(err: GatewayError): { code: string; status: number } {
  switch (err.code) {
    case 'MODEL_NOT_FOUND':
    case 'MODEL_UNAVAILABLE':
      return { code: 'MODEL_UNAVAILABLE', status: 503 }
    case 'UPSTREAM_TIMEOUT':
      return { code: 'UPSTREAM_ERROR', status: 502 }
    case 'UPSTREAM_REJECTED':
      return { code: 'BAD_REQUEST', status: 400 }
    default:
      return { code: err.code, status: err.status }
  }
}

export function chatErrorBody(err: GatewayError): { status: number; body: string } {
  const { code, status } = chatCode(err)
  const error: Record<string, unknown> = { code, message: err.message }
  if (err.extra.param) error.param = err.extra.param
  if (err.extra.issues) error.details = { issues: err.extra.issues }
  return { status, body: JSON.stringify({ status: 'error', error }) }
}

/** The one mid-stream failure event (docs/api.md "Streams that fail"); no [DONE] follows it. */
export function chatStreamError(err: GatewayError): string {
  return JSON.stringify({ error: { code: chatCode(err).code, message: err.message } })
}
