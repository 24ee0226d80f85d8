// The console's request context, used by every feature that browsers call (not by webhooks):
// - `client`: IP and TLS as far as trusted proxies vouch (client.ts);
// - the per-IP limits (limits.ts), counted before the body is validated, and the cross-site
//   refusal of state-changing calls (same-origin.ts);
// - the `signedIn` macro, which resolves `user` from the svc_session cookie or answers 401.
// Unnamed on purpose: each feature gets its own copy, so the scoped hooks apply to its routes.
import { Elysia } from 'elysia'
import { GatewayError } from '../../core/errors.ts'
import { sessionUser } from '../auth/sessions.ts'
import type { ConsoleDeps } from '../deps.ts'
import { clientInfo } from './client.ts'
import { readCookie, SESSION_COOKIE } from './cookies.ts'
import { API_LIMIT, limitIp, type RateRule } from './limits.ts'
import { isCrossSite } from './same-origin.ts'

type Server = { requestIP(req: Request): { address: string } | null } | null

export interface ContextOptions {
  /** A further limit for this feature's state-changing calls (the auth attempts limit). */
  attempts?: RateRule
}

export function consoleContext(deps: ConsoleDeps, opts: ContextOptions = {}) {
  return new Elysia()
    .derive({ as: 'scoped' }, async ({ request, server, set }) => {
      const url = new URL(request.url)
      const client = clientInfo(url, request.headers, (server as Server)?.requestIP(request)?.address, deps.isTrustedProxy)
      const now = deps.now()
      Object.assign(set.headers, await limitIp(deps.store, API_LIMIT, client.ip, now))
      const changes = request.method !== 'GET' && request.method !== 'HEAD'
      // The tighter attempts quota is the one an auth client should pace itself by.
      if (changes && opts.attempts) Object.assign(set.headers, await limitIp(deps.store, opts.attempts, client.ip, now))
      if (isCrossSite(request.method, url, request.headers, { https: client.https, publicUrl: deps.config.publicUrl }))
        throw new GatewayError('FORBIDDEN', 'Cross-site request refused.')
      return { client }
    })
    .macro({
      signedIn: {
        async resolve({ request }) {
          const user = await sessionUser(deps.db, readCookie(request.headers, SESSION_COOKIE), deps.now())
          if (!user) throw new GatewayError('UNAUTHORIZED', 'Sign in first: no valid console session.')
          return { user }
        },
      },
    })
}
