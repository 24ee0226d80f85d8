// Headers every response of a surface carries, set when the request arrives (so errors carry
// them too): the security headers on /api/* (security-headers.ts), the CORS grant on /v1/*
// when the operator configured origins (cors.ts).
import type { Config } from '../config.ts'
import { clientInfo, peerAddress } from './client.ts'
import { ipMatcher } from '../lib/ip.ts'
import { corsHeaders, type CorsPolicy } from './cors.ts'
import { consoleSecurityHeaders } from './security-headers.ts'

export function surfaceHeaders(config: Pick<Config, 'publicUrl' | 'trustedProxies'>, cors: CorsPolicy) {
  const trusted = ipMatcher(config.trustedProxies)
  const publicHttps = config.publicUrl?.startsWith('https:') ?? false
  return (request: Request, server: unknown): Record<string, string> => {
    const path = pathOf(request.url)
    if (path.startsWith('/api/') || path === '/api') {
      const https = publicHttps || clientInfo(new URL(request.url), request.headers, peerAddress(server, request), trusted).https
      return consoleSecurityHeaders(https)
    }
    if (cors.origins.length > 0 && path.startsWith('/v1/')) return corsHeaders(cors, request.headers.get('origin'))
    return {}
  }
}

/**
 * The path of a request's absolute URL without parsing a URL object on every request: Bun hands
 * requests over with their URL already normalised (dot segments resolved), so this is what
 * `new URL(url).pathname` would give.
 */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  let end = url.length
  for (const stop of ['?', '#']) {
    const at = url.indexOf(stop, start)
    if (at !== -1 && at < end) end = at
  }
  return url.slice(start, end)
}
