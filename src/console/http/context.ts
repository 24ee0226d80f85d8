// The console's request context, used by every feature that browsers call (not by webhooks).
// Order of checks (docs/security.md): the per-IP limits (limits.ts) and the cross-site refusal
// of state-changing calls (same-origin.ts); then the session where the feature needs one; then
// the body (http/console-body.ts: size, JSON, object, safe text); then the safe-text rule over
// query and path; then the route's schema. So a caller without a session learns nothing about
// its input, and every refused call still counts against its address.
// - `client`: IP and TLS as far as trusted proxies vouch (client.ts);
// - `user`: sessionRequired() makes every route of a feature need the svc_session cookie; the
//   `signedIn` macro does the same for one route without a body or query schema.
// Parse hooks run before derives, so the first two steps are memoised per request and called
// from both. Unnamed on purpose: each feature gets its own copy of the scoped hooks.
import { type Context, Elysia } from 'elysia'
import { GatewayError } from '../../core/errors.ts'
import { checkParams, consoleBody } from '../../http/console-body.ts'
import { sessionUser, type SessionUser } from '../auth/sessions.ts'
import type { ConsoleDeps } from '../deps.ts'
import { clientInfo, peerAddress, type ClientInfo } from '../../http/client.ts'
import { sessionToken } from './cookies.ts'
import { API_LIMIT, limitIp, type RateRule } from './limits.ts'
import { isCrossSite } from './same-origin.ts'

type Jar = Context['cookie']

/** What the request context uses; every feature browsers call is given at least this. */
export type ContextDeps = Pick<ConsoleDeps, 'db' | 'store' | 'now' | 'isTrustedProxy' | 'config'>

export interface ContextOptions {
  /** A further limit for this feature's state-changing calls (the auth attempts limit). */
  attempts?: RateRule
}

const admitted = new WeakMap<Request, Promise<{ client: ClientInfo; headers: Record<string, string> }>>()
const sessions = new WeakMap<Request, Promise<SessionUser | undefined>>()

function once<T>(memo: WeakMap<Request, Promise<T>>, request: Request, run: () => Promise<T>): Promise<T> {
  let p = memo.get(request)
  if (!p) memo.set(request, (p = run()))
  return p
}

/** Counts the call against its address and refuses cross-site writes (once per request). */
function admit(deps: ContextDeps, opts: ContextOptions, request: Request, server: unknown) {
  return once(admitted, request, async () => {
    const url = new URL(request.url)
    const client = clientInfo(url, request.headers, peerAddress(server, request), deps.isTrustedProxy)
    const now = deps.now()
    const headers = await limitIp(deps.store, API_LIMIT, client.ip, now)
    // The tighter attempts quota is the one an auth client should pace itself by.
    const changes = request.method !== 'GET' && request.method !== 'HEAD'
    if (changes && opts.attempts) Object.assign(headers, await limitIp(deps.store, opts.attempts, client.ip, now))
    if (isCrossSite(request.method, url, request.headers, { https: client.https, publicUrl: deps.config.publicUrl }))
      throw new GatewayError('FORBIDDEN', 'Cross-site request refused.', { headers })
    return { client, headers }
  })
}

async function requireUser(deps: Pick<ContextDeps, 'db' | 'now'>, request: Request, cookie: Jar): Promise<SessionUser> {
  const user = await once(sessions, request, () => sessionUser(deps.db, sessionToken(cookie), deps.now()))
  if (!user) throw new GatewayError('UNAUTHORIZED', 'Sign in first: no valid console session.')
  return user
}

export function consoleContext(deps: ContextDeps, opts: ContextOptions = {}) {
  return new Elysia()
    .onParse({ as: 'scoped' }, async ({ request, contentType, server }) => {
      await admit(deps, opts, request, server)
      return consoleBody(request, contentType, deps.config.maxBodyBytes)
    })
    .derive({ as: 'scoped' }, async ({ request, server, set }) => {
      const { client, headers } = await admit(deps, opts, request, server)
      Object.assign(set.headers, headers)
      return { client }
    })
    .onTransform({ as: 'scoped' }, ({ query, params }) => checkParams(query, params))
    .macro({
      signedIn: {
        resolve: async ({ request, cookie }) => ({ user: await requireUser(deps, request, cookie) }),
      },
    })
}

/** For a feature whose every route needs a session; `.use` it before consoleContext. */
export function sessionRequired(deps: ContextDeps) {
  return new Elysia()
    .onParse({ as: 'scoped' }, async ({ request, server, cookie }) => {
      await admit(deps, {}, request, server)
      await requireUser(deps, request, cookie)
    })
    .derive({ as: 'scoped' }, async ({ request, server, set, cookie }) => {
      Object.assign(set.headers, (await admit(deps, {}, request, server)).headers)
      return { user: await requireUser(deps, request, cookie) }
    })
}
