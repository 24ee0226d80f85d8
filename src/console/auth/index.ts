// POST /api/auth/register, /login, /logout; GET /api/auth/me (docs/console.md "Sessions"). Every POST
// here counts against the 30 attempts / 15 min / IP limit (docs/console.md "Limits").
import { type Context, Elysia } from 'elysia'
import { strictBody } from '../../http/strict-body.ts'
import { type ContextDeps, consoleContext } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { clearSessionCookie, sessionToken, setSessionCookie } from '../http/cookies.ts'
import { AUTH_LIMIT } from '../http/limits.ts'
import { LoggedOut, Login, Me, Registration } from './model.ts'
import { verifyLogin, register } from './service.ts'
import { createSession, deleteSession } from './sessions.ts'

type Jar = Context['cookie']

const detail = (summary: string) => ({ tags: ['auth'], summary })

export function authFeature(deps: ContextDeps) {
  const ttl = deps.config.sessionTtlSeconds
  const signIn = async (user: Me, cookie: Jar, https: boolean) => {
    // A sign-in replaces the browser's previous session rather than leaving it alive unseen.
    await deleteSession(deps.db, sessionToken(cookie))
    const token = await createSession(deps.db, user.id, ttl, deps.now())
    setSessionCookie(cookie, token, ttl, https || isHttpsUrl(deps.config.publicUrl))
    return user
  }
  return new Elysia({ prefix: '/api/auth' })
    .use(consoleContext(deps, { attempts: AUTH_LIMIT }))
    .post(
      '/register',
      async ({ body, cookie, client, set }) => {
        const user = await register(deps.db, body)
        set.status = 201
        return signIn(user, cookie, client.https)
      },
      {
        parse: 'json',
        ...strictBody(Registration),
        response: { 201: Me },
        detail: detail('Create an account and sign in (sets svc_session)'),
      },
    )
    .post('/login', async ({ body, cookie, client }) => signIn(await verifyLogin(deps.db, body), cookie, client.https), {
      parse: 'json',
      ...strictBody(Login),
      response: { 200: Me },
      detail: detail('Sign in (sets svc_session); a wrong password and an unknown email get the same 401'),
    })
    .post(
      '/logout',
      async ({ cookie, client }) => {
        await deleteSession(deps.db, sessionToken(cookie))
        clearSessionCookie(cookie, client.https || isHttpsUrl(deps.config.publicUrl))
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
