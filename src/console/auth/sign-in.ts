// Starting a console session for a user (sign-up, sign-in, an opened verification link): a new
// session row and its svc_session cookie, replacing the browser's previous session rather than
// leaving it alive unseen (docs/console.md "Sessions").
import type { ContextDeps } from '../http/context.ts'
import { readCookie, SESSION_COOKIE, sessionCookie } from '../http/cookies.ts'
import type { Me } from './model.ts'
import { createSession, deleteSession } from './sessions.ts'

export async function startSession(
  deps: Pick<ContextDeps, 'db' | 'now' | 'config'>,
  user: Me,
  request: Request,
  https: boolean,
  set: { headers: Record<string, unknown> },
): Promise<Me> {
  const ttl = deps.config.sessionTtlSeconds
  await deleteSession(deps.db, readCookie(request.headers, SESSION_COOKIE))
  const token = await createSession(deps.db, user.id, ttl, deps.now())
  set.headers['set-cookie'] = sessionCookie(token, ttl, https || isHttpsUrl(deps.config.publicUrl))
  return { id: user.id, email: user.email }
}

export const isHttpsUrl = (url: string | undefined) => url?.startsWith('https:') ?? false
