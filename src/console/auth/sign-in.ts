// Starting a console session for a user (sign-up, sign-in, an opened verification link): a new
// session row and its svc_session cookie, set through Elysia's cookie jar, replacing the browser's
// previous session rather than leaving it alive unseen (docs/console.md "Sessions").
import type { Context } from 'elysia'
import type { ContextDeps } from '../http/context.ts'
import { sessionToken, setSessionCookie } from '../http/cookies.ts'
import type { Me } from './model.ts'
import { createSession, deleteSession } from './sessions.ts'

export async function startSession(
  deps: Pick<ContextDeps, 'db' | 'now' | 'config'>,
  user: Me & { credentialVersion?: number },
  cookie: Context['cookie'],
  https: boolean,
): Promise<Me> {
  const ttl = deps.config.sessionTtlSeconds
  await deleteSession(deps.db, sessionToken(cookie))
  const token = await createSession(deps.db, user.id, ttl, deps.now(), user.credentialVersion ?? 0)
  setSessionCookie(cookie, token, ttl, https || isHttpsUrl(deps.config.publicUrl))
  return { id: user.id, email: user.email, role: user.role, verified: user.verified }
}

export const isHttpsUrl = (url: string | undefined) => url?.startsWith('https:') ?? false
