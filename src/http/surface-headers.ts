// Headers every response of a surface carries, set when the request arrives (so errors carry
// them too): the security headers on /api/* (security-headers.ts), the CORS grant on /v1/*
// when the operator configured origins (cors.ts).
import type { Config } from '../config.ts'
import { clientInfo, peerAddress } from '../console/http/client.ts'
import { ipMatcher } from '../lib/ip.ts'
import { corsHeaders, type CorsPolicy } from './cors.ts'
import { consoleSecurityHeaders } from './security-headers.ts'

export function surfaceHeaders(config: Pick<Config, 'publicUrl' | 'trustedProxies'>, cors: CorsPolicy) {
  const trusted = ipMatcher(config.trustedProxies)
  const publicHttps = config.publicUrl?.startsWith('https:') ?? false
  return (request: Request, server: unknown): Record<string, string> => {
    const url = new URL(request.url)
    if (url.pathname.startsWith('/api/') || url.pathname === '/api') {
      const https = publicHttps || clientInfo(url, request.headers, peerAddress(server, request), trusted).https
      return consoleSecurityHeaders(https)
    }
    if (cors.origins.length > 0 && url.pathname.startsWith('/v1/')) return corsHeaders(cors, request.headers.get('origin'))
    return {}
  }
}
