// Who may call the admin API (docs/operators.md "Who may call the admin API"; docs/security.md
// "Order of checks"): every call counts against a per-IP limit first; then either
// `Authorization: Bearer $ADMIN_TOKEN` (compared by lib/bearer.ts) or an admin's console session
// (the svc_session cookie, with the console's cross-site refusal). A user's session gets 403.
// Runs once per request, from the parse hook (before a body is read) and from the derive (routes
// without a body), so an unauthenticated caller learns nothing about its input.
import { clientInfo, peerAddress } from '../http/client.ts'
import { limitIp, type RateRule } from '../console/http/limits.ts'
import { isCrossSite } from '../console/http/same-origin.ts'
import { sessionUser } from '../console/auth/sessions.ts'
import { GatewayError } from '../core/errors.ts'
import { bearerMatches } from '../lib/bearer.ts'
import { ipMatcher } from '../lib/ip.ts'
import type { Actor } from './audit.ts'
import type { AdminDeps } from './deps.ts'

export const ADMIN_LIMIT: RateRule = { name: 'admin', limit: 600, windowMs: 60_000 }

export interface Admitted {
  headers: Record<string, string>
  actor: Actor
}

type GateDeps = Pick<AdminDeps, 'config' | 'store' | 'now' | 'db'>

export function adminGate(deps: GateDeps) {
  const token = deps.config.adminToken
  const trusted = ipMatcher(deps.config.trustedProxies)
  const seen = new WeakMap<Request, Promise<Admitted>>()
  const check = async (request: Request, server: unknown, session: string | undefined): Promise<Admitted> => {
    const url = new URL(request.url)
    const client = clientInfo(url, request.headers, peerAddress(server, request), trusted)
    const headers = await limitIp(deps.store, ADMIN_LIMIT, client.ip, deps.now())
    const authorization = request.headers.get('authorization')
    if (authorization === null && session !== undefined) {
      if (isCrossSite(request.method, url, request.headers, { https: client.https, publicUrl: deps.config.publicUrl }))
        throw new GatewayError('FORBIDDEN', 'Cross-site request refused.', { headers })
      return { headers, actor: await sessionAdmin(deps, session, headers) }
    }
    // Without a token configured and without a session, the admin API does not exist.
    if (!token) throw new GatewayError('NOT_FOUND', 'No such endpoint.')
    if (!bearerMatches(token, authorization)) throw new GatewayError('UNAUTHORIZED', 'Invalid admin token.', { headers })
    return { headers, actor: { kind: 'token' } }
  }
  /** `session`: the svc_session cookie as Elysia's cookie jar read it (console/http/cookies.ts). */
  return (request: Request, server: unknown, session: string | undefined): Promise<Admitted> => {
    let p = seen.get(request)
    if (!p) seen.set(request, (p = check(request, server, session)))
    return p
  }
}

async function sessionAdmin(deps: GateDeps, token: string, headers: Record<string, string>): Promise<Actor> {
  const user = await sessionUser(deps.db, token, deps.now())
  if (!user) throw new GatewayError('UNAUTHORIZED', 'Sign in first: no valid console session.', { headers })
  if (user.role !== 'admin') throw new GatewayError('FORBIDDEN', 'Operators only: this account is not an admin.', { headers })
  return { kind: 'user', id: user.id, email: user.email }
}
