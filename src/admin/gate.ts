// Who may call the admin API (docs/security.md "Order of checks"): every call counts against a per-IP
// limit first, then must carry `Authorization: Bearer $ADMIN_TOKEN` (compared by lib/bearer.ts).
// Runs once per request, from the parse hook (before a body is read) and from transform (routes
// without a body), so an unauthenticated caller learns nothing about its input.
import { clientInfo, peerAddress } from '../http/client.ts'
import { limitIp, type RateRule } from '../console/http/limits.ts'
import { GatewayError } from '../core/errors.ts'
import { bearerMatches } from '../lib/bearer.ts'
import { ipMatcher } from '../lib/ip.ts'
import type { AdminDeps } from './deps.ts'

export const ADMIN_LIMIT: RateRule = { name: 'admin', limit: 600, windowMs: 60_000 }

export function adminGate(deps: Pick<AdminDeps, 'config' | 'store' | 'now'>) {
  const token = deps.config.adminToken
  const trusted = ipMatcher(deps.config.trustedProxies)
  const seen = new WeakMap<Request, Promise<Record<string, string>>>()
  const check = async (request: Request, server: unknown) => {
    if (!token) throw new GatewayError('NOT_FOUND', 'No such endpoint.')
    const { ip } = clientInfo(new URL(request.url), request.headers, peerAddress(server, request), trusted)
    const headers = await limitIp(deps.store, ADMIN_LIMIT, ip, deps.now())
    if (!bearerMatches(token, request.headers.get('authorization')))
      throw new GatewayError('UNAUTHORIZED', 'Invalid admin token.', { headers })
    return headers
  }
  return (request: Request, server: unknown): Promise<Record<string, string>> => {
    let p = seen.get(request)
    if (!p) seen.set(request, (p = check(request, server)))
    return p
  }
}
