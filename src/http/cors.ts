// CORS for /v1 (docs/security.md "CORS"), an operator setting, off by default: CORS_ORIGINS
// lists the browser origins allowed to call the inference API with their own key (or `*`).
// The console and admin API never answer CORS: they rely on the session cookie and the
// same-origin rule instead.

export interface CorsPolicy {
  /** Allowed origins, lower case; `*` allows any. */
  origins: string[]
}

const ALLOW_METHODS = 'GET, POST, OPTIONS'
const EXPOSE =
  'x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-ratelimit-reset-requests'
/** What SDKs send: auth, content type, the vendors' version/beta headers and their telemetry. */
const ALLOW_HEADERS =
  /^(authorization|content-type|x-api-key|anthropic-[a-z0-9-]+|openai-[a-z0-9-]+|x-stainless-[a-z0-9-]+|idempotency-key|x-request-id)$/

function allowedOrigin(policy: CorsPolicy, origin: string | null): string | undefined {
  if (!origin) return undefined
  if (policy.origins.includes('*')) return '*'
  return policy.origins.includes(origin.toLowerCase()) ? origin : undefined
}

/** Headers for an actual /v1 response (none when the origin is not allowed). */
export function corsHeaders(policy: CorsPolicy, origin: string | null): Record<string, string> {
  const allow = allowedOrigin(policy, origin)
  if (!allow) return {}
  return { 'access-control-allow-origin': allow, 'access-control-expose-headers': EXPOSE, ...(allow === '*' ? {} : { vary: 'Origin' }) }
}

/** The answer to a preflight: 204 with the grant, or 204 without one (the browser then refuses). */
export function preflight(policy: CorsPolicy, headers: Headers): Response {
  const base = corsHeaders(policy, headers.get('origin'))
  if (!base['access-control-allow-origin']) return new Response(null, { status: 204, headers: { vary: 'Origin' } })
  const asked = (headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
  const allowed = asked.filter((h) => ALLOW_HEADERS.test(h))
  return new Response(null, {
    status: 204,
    headers: {
      ...base,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': allowed.join(', '),
      'access-control-max-age': '600',
    },
  })
}
