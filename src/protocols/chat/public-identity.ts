// Upstream identity never reaches a client (SPEC "What the service does" 5, DESIGN "Errors"):
// the upstream's model name becomes the public slug, and members that name the upstream
// provider (OpenRouter's `provider`) are dropped.

const IDENTITY_MEMBERS = ['provider'] as const

/**
 * Rewrites one serialized chunk/completion. Fast path: splice the exact `"model":"<upstream>"`
 * token (the bytes are otherwise forwarded untouched). Slow path, when the upstream serialized
 * the member differently or sent identity members: re-serialize the parsed object.
 */
export function publicJson(raw: string, parsed: Record<string, unknown>, slug: string): string {
  let hasIdentity = false
  for (const k of IDENTITY_MEMBERS) if (k in parsed) hasIdentity = true
  const model = parsed.model
  if (!hasIdentity) {
    if (typeof model !== 'string' || model === slug) return raw
    const token = `"model":${JSON.stringify(model)}`
    const at = raw.indexOf(token)
    if (at !== -1 && raw.indexOf(token, at + token.length) === -1)
      return `${raw.slice(0, at)}"model":${JSON.stringify(slug)}${raw.slice(at + token.length)}`
  }
  const copy: Record<string, unknown> = { ...parsed }
  for (const k of IDENTITY_MEMBERS) delete copy[k]
  if ('model' in copy) copy.model = slug
  return JSON.stringify(copy)
}
