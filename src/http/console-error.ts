// Console/admin error envelope: {error:{code, message}}. Elysia's own validation and not-found
// errors are rendered in the same envelope; a backing-service outage (lib/outage.ts) is a 503.
import { GatewayError, serviceUnavailable } from '../core/errors.ts'
import { isOutage } from '../lib/outage.ts'
import type { Logger } from '../lib/log.ts'
import { describeError } from '../lib/validate.ts'
import type { ValueError } from '@sinclair/typebox/errors'

export function consoleError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json', ...headers } })
}

/** The onError hook of the console and admin API: renders the envelope and logs every error the
 *  client did not cause (a 5xx) with the request id it was answered under. */
export function consoleErrorHook(log: Logger) {
  return ({
    code,
    error,
    set,
    request,
  }: {
    code: string | number
    error: unknown
    set: { headers: Record<string, unknown> }
    request: Request
  }) => {
    const res = renderConsoleError(code, error)
    if (res.status >= 500)
      log.error('console request failed', {
        requestId: set.headers['x-request-id'],
        method: request.method,
        path: new URL(request.url).pathname,
        code,
        err: errorText(error),
      })
    return res
  }
}

const errorText = (e: unknown) =>
  e instanceof Error ? `${e.name}: ${e.message}${e.cause ? ` (cause: ${String(e.cause)})` : ''}` : String(e)

export function renderConsoleError(code: string | number, error: unknown): Response {
  // A parse hook's own refusal (413, 401, unsafe text) arrives wrapped in Elysia's ParseError.
  if (code === 'PARSE' && (error as Error)?.cause instanceof GatewayError) error = (error as Error).cause
  // Postgres or Redis did not answer (or not in time): the same fast 503 + Retry-After as /v1.
  if (!(error instanceof GatewayError) && isOutage(error)) error = serviceUnavailable(error)
  if (error instanceof GatewayError) return consoleError(error.status, error.code, error.message, error.extra.headers)
  if (code === 'VALIDATION') {
    const v = error as { type?: string; customError?: unknown; all?: { path?: string; message?: string; summary?: string }[] }
    const first = v.all?.[0]
    // A bad query or path parameter is the caller's 400 (docs/console.md "Conventions": an
    // out-of-range parameter is BAD_REQUEST); a body that fails its schema stays 422
    // VALIDATION_FAILED. Elysia reports a coerced query number out of range as type "property"
    // without a path, so such schemas carry their own message (`error` option → customError).
    if (v.type === 'query' || v.type === 'params' || v.type === 'property') {
      const name = first?.path?.replace(/^\//, '').replace(/\//g, '.') || 'query'
      const message = typeof v.customError === 'string' ? v.customError : `${name}: ${first?.summary ?? first?.message ?? 'invalid value'}`
      return consoleError(400, 'BAD_REQUEST', message)
    }
    // TypeBox's own error (Elysia passes it on): described as the /v1 bodies are (lib/validate.ts).
    if (first && 'schema' in first && 'type' in first) {
      const issue = describeError(first as ValueError)
      return consoleError(422, 'VALIDATION_FAILED', `${issue.path}: ${issue.message}`)
    }
    const path = first?.path ? first.path.slice(1).replace(/\//g, '.') : 'body'
    return consoleError(422, 'VALIDATION_FAILED', `${path}: ${first?.message ?? 'invalid value'}`)
  }
  if (code === 'PARSE') return consoleError(400, 'BAD_REQUEST', 'The request body is not valid JSON.')
  if (code === 'NOT_FOUND') return consoleError(404, 'NOT_FOUND', 'No such endpoint.')
  return consoleError(500, 'INTERNAL', 'Internal error.')
}
