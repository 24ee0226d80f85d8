// Console/admin error envelope (DESIGN): {error:{code, message}} with SPEC codes. Elysia's own
// validation and not-found errors are rendered in the same envelope.
import { GatewayError } from '../core/errors.ts'

export function consoleError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json', ...headers } })
}

export function renderConsoleError(code: string | number, error: unknown): Response {
  if (error instanceof GatewayError) return consoleError(error.status, error.code, error.message, error.extra.headers)
  if (code === 'VALIDATION') {
    const v = error as { type?: string; customError?: unknown; all?: { path?: string; message?: string; summary?: string }[] }
    const first = v.all?.[0]
    // A bad query or path parameter is the caller's 400 (issue 4: "out-of-range parameters get a
    // clear 400"); a body that fails its schema stays 422 VALIDATION_FAILED. Elysia reports a
    // coerced query number out of range as type "property" without a path, so such schemas carry
    // their own message (`error` option → customError).
    if (v.type === 'query' || v.type === 'params' || v.type === 'property') {
      const name = first?.path?.replace(/^\//, '').replace(/\//g, '.') || 'query'
      const message = typeof v.customError === 'string' ? v.customError : `${name}: ${first?.summary ?? first?.message ?? 'invalid value'}`
      return consoleError(400, 'BAD_REQUEST', message)
    }
    const path = first?.path ? first.path.slice(1).replace(/\//g, '.') : 'body'
    return consoleError(422, 'VALIDATION_FAILED', `${path}: ${first?.message ?? 'invalid value'}`)
  }
  if (code === 'PARSE') return consoleError(400, 'BAD_REQUEST', 'The request body is not valid JSON.')
  if (code === 'NOT_FOUND') return consoleError(404, 'NOT_FOUND', 'No such endpoint.')
  return consoleError(500, 'INTERNAL', 'Internal error.')
}
