// Body and parameter intake of the console and admin API (docs/security.md "Input"), run as an
// Elysia parse hook so it comes after authentication and before schema validation:
// MAX_BODY_BYTES (413); JSON only, as its content type says (415 otherwise: a form, or JSON sent
// as text/plain, the kinds a cross-site page posts without preflight, only with an empty body); an object at the top
// (a body of null, [], 1 or "x" is 422) without prototype-polluting member names; and the
// safe-text rule over the body, the query and the path parameters.
import { GatewayError } from '../core/errors.ts'
import { isSafeText } from '../lib/safe-text.ts'
import { parseJsonText, readBodyText, unsafeText } from './body.ts'

/** application/json, or a JSON-based type (`application/merge-patch+json`). */
const isJsonType = (contentType: string) => /^application\/([a-z0-9.-]+\+)?json$/.test(contentType.trim().toLowerCase())

export async function consoleBody(request: Request, contentType: string, maxBytes: number): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, maxBytes)
  // An empty body (a form's bare button) is an empty object; any other body must say it is JSON,
  // so a cross-site form or text/plain post can never pass for a JSON call.
  if (text.trim() === '') return {}
  if (!isJsonType(contentType)) throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.')
  const value = parseJsonText(text)
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new GatewayError('VALIDATION_FAILED', 'body: must be a JSON object.')
  const polluting = pollutingMember(value)
  if (polluting) throw new GatewayError('BAD_REQUEST', `${polluting}: a member of this name is not accepted.`, { param: polluting })
  return value as Record<string, unknown>
}

/** Member names that reach an object's prototype when code merges objects: no console or admin
 *  body has a use for them (a /v1 body may: a tool parameter can be called `constructor`). */
const POLLUTING = new Set(['__proto__', 'constructor', 'prototype'])

function pollutingMember(value: object): string | undefined {
  const stack: [unknown, string][] = [[value, 'body']]
  while (stack.length > 0) {
    const [v, path] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    for (const [k, child] of Object.entries(v)) {
      if (POLLUTING.has(k)) return `${path}.${k}`
      stack.push([child, `${path}.${k}`])
    }
  }
  return undefined
}

/** The safe-text rule over the query string and path parameters Elysia decoded (%00 → NUL). */
export function checkParams(query: Record<string, unknown>, params: Record<string, unknown>): void {
  for (const [where, values] of [
    ['query', query],
    ['params', params],
  ] as const)
    for (const [k, v] of Object.entries(values ?? {})) {
      const texts = Array.isArray(v) ? v : [v]
      if (!isSafeText(k) || texts.some((s) => typeof s === 'string' && !isSafeText(s))) throw unsafeText(where === 'query' ? k : `:${k}`)
    }
}
