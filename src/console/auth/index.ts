// POST /api/auth/register, /login, /logout; GET /api/auth/me (docs/console.md "Sessions"). Every POST
// here counts against the 30 attempts / 15 min / IP limit (docs/console.md "Limits").
import { Elysia } from 'elysia'
import { strictBody } from '../../http/strict-body.ts'
import { type ContextDeps, consoleContext } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../http/cookies.ts'
import { AUTH_LIMIT } from '../http/limits.ts'
import { LoggedOut, Login, Me, Registration } from './model.ts'
import { verifyLogin, register } from './service.ts'
import { createSession, deleteSession } from './sessions.ts'

const detail = (summary: string) => ({ tags: ['auth'], summary })

export function authFeature(deps: ContextDeps) {
  const ttl = deps.config.sessionTtlSeconds
  const signIn = async (user: Me, request: Request, https: boolean, set: { headers: Record<string, unknown> }) => {
    // A sign-in replaces the browser's previous session rather than leaving it alive unseen.
    await deleteSession(deps.db, readCookie(request.headers, SESSION_COOKIE))
    const token = await createSession(deps.db, user.id, ttl, deps.now())
    set.headers['set-cookie'] = sessionCookie(token, ttl, https || isHttpsUrl(deps.config.publicUrl))
    return user
  }
  return new Elysia({ prefix: '/api/auth' })
    .use(consoleContext(deps, { attempts: AUTH_LIMIT }))
    .post(
      '/register',
      async ({ body, request, client, set }) => {
        const user = await register(deps.db, body)
        set.status = 201
        return signIn(user, request, client.https, set)
      },
      {
        parse: 'json',
        ...strictBody(Registration),
        response: { 201: Me },
        detail: detail('Create an account and sign in (sets svc_session)'),
      },
    )
    .post('/login', async ({ body, request, client, set }) => signIn(await verifyLogin(deps.db, body), request, client.https, set), {
      parse: 'json',
      ...strictBody(Login),
      response: { 200: Me },
      detail: detail('Sign in (sets svc_session); a wrong password and an unknown email get the same 401'),
    })
    .post(
      '/logout',
      async ({ request, client, set }) => {
        await deleteSession(deps.db, readCookie(request.headers, SESSION_COOKIE))
        set.headers['set-cookie'] = clearedSessionCookie(client.https || isHttpsUrl(deps.config.publicUrl))
        return { ok: true as const }
      },
      { response: { 200: LoggedOut }, detail: detail('End the session server-side and clear the cookie') },
    )
    .get('/me', ({ user }) => user, {
      signedIn: true,
      response: { 200: Me },
      detail: { ...detail('The signed-in user'), security: SESSION_SECURITY },
    })
}

const isHttpsUrl = (url: string | undefined) => url?.startsWith('https:') ?? false
