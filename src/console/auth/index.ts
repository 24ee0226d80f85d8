// POST /api/auth/register, /login, /logout; GET /api/auth/me (docs/console.md "Sessions"). Every POST
// here counts against the 30 attempts / 15 min / IP limit (docs/console.md "Limits"). With
// REQUIRE_EMAIL_VERIFICATION, sign-up answers 202 without a session and sign-in refuses an
// unconfirmed email, mailing a fresh link (docs/console.md "Email verification").
import { type Context, Elysia } from 'elysia'
import { GatewayError } from '../../core/errors.ts'
import { strictBody } from '../../http/strict-body.ts'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { clearSessionCookie, sessionToken } from '../http/cookies.ts'
import { AUTH_LIMIT } from '../http/limits.ts'
import { LoggedOut, Login, Me, PendingVerification, Registration } from './model.ts'
import { sendVerification } from './recovery-service.ts'
import { verifyLogin, register } from './service.ts'
import { deleteSession } from './sessions.ts'
import { isHttpsUrl, startSession } from './sign-in.ts'

type Jar = Context['cookie']

const detail = (summary: string) => ({ tags: ['auth'], summary })

export type AuthDeps = ContextDeps & Pick<ConsoleDeps, 'mailer' | 'log'>

export function authFeature(deps: AuthDeps) {
  const mustVerify = deps.config.requireEmailVerification
  const unconfirmed = (user: Me) => {
    const where = deps.mailer.delivery === 'email' ? `open the link we sent to ${user.email}` : 'ask the operator for your link'
    return new GatewayError('FORBIDDEN', `Confirm your email first: ${where}.`)
  }
  const signIn = (user: Me & { credentialVersion: number }, cookie: Jar, https: boolean) => startSession(deps, user, cookie, https)
  return new Elysia({ prefix: '/api/auth' })
    .use(consoleContext(deps, { attempts: AUTH_LIMIT }))
    .post(
      '/register',
      async ({ body, cookie, client, set }) => {
        const user = await register(deps.db, body)
        if (mustVerify) {
          await sendVerification(deps, user)
          set.status = 202
          return { id: user.id, email: user.email, verification: deps.mailer.delivery }
        }
        set.status = 201
        return signIn(user, cookie, client.https)
      },
      {
        parse: 'json',
        ...strictBody(Registration),
        response: { 201: Me, 202: PendingVerification },
        detail: detail('Create an account and sign in (sets svc_session); 202 without a session when the email must be confirmed first'),
      },
    )
    .post(
      '/login',
      async ({ body, cookie, client }) => {
        const user = await verifyLogin(deps.db, body)
        // Only after the right password: the answer tells nothing about an address to a stranger.
        if (mustVerify && !user.verified) {
          await sendVerification(deps, user)
          throw unconfirmed(user)
        }
        return signIn(user, cookie, client.https)
      },
      {
        parse: 'json',
        ...strictBody(Login),
        response: { 200: Me },
        detail: detail('Sign in (sets svc_session); a wrong password and an unknown email get the same 401; an unconfirmed email 403'),
      },
    )
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
