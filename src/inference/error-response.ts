// The one error mapping of /v1 (docs/api.md): any failure of a /v1 route becomes the
// protocol's own envelope and status, with x-request-id, retry headers (Retry-After and rate
// headers), and a log line under the request id when the error was not expected.
import { clientRetryHeaders, type GatewayError } from '../core/errors.ts'
import type { Logger } from '../lib/log.ts'

/** A protocol's error envelope (protocols/<p>/error.ts). */
export type ErrorEnvelope = (err: GatewayError) => { status: number; body: string }

/**
 * The response to a failed /v1 call. `what` names the route in the log line of an INTERNAL
 * error (e.g. "chat request failed").
 */
export function errorResponse(
  envelope: ErrorEnvelope,
  err: GatewayError,
  requestId: string,
  log: Logger,
  what: string,
  idHeaders: readonly string[] = ['x-request-id'],
): Response {
  if (err.code === 'INTERNAL') log.error(`${what} failed`, { requestId, err: String(err.cause ?? err) })
  const { status, body } = envelope(err)
  const headers: Record<string, string> = { 'content-type': 'application/json', ...clientRetryHeaders(err), ...err.extra.headers }
  for (const h of idHeaders) headers[h] = requestId
  return new Response(body, { status, headers })
}
