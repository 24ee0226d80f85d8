// POST /api/auth/password/forgot, /password/reset and /verify (docs/console.md "Password reset",
// "Email verification"). Besides the auth attempts limit, a reset request counts against its own
// per-IP limit, and mails against a per-email one (http/limits.ts).
import { strictBody } from '../../http/strict-body.ts'
import { Elysia } from 'elysia'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext } from '../http/context.ts'
import { AUTH_LIMIT, limitIp, RESET_LIMIT } from '../http/limits.ts'
import { EmailToken, ForgotPassword, LoggedOut, Me, NewPassword, ResetRequested } from './model.ts'
import { requestResetAfterAnswer, resetPassword, verifyEmail } from './recovery-service.ts'
import { startSession } from './sign-in.ts'

const detail = (summary: string) => ({ tags: ['auth'], summary })

export function recoveryFeature(deps: ContextDeps & Pick<ConsoleDeps, 'mailer' | 'log'>) {
  return new Elysia({ prefix: '/api/auth' })
    .use(consoleContext(deps, { attempts: AUTH_LIMIT }))
    .post(
      '/password/forgot',
      async ({ body, client, set }) => {
        Object.assign(set.headers, await limitIp(deps.store, RESET_LIMIT, client.ip, deps.now()))
        // Nothing of the email is looked at before the answer: its timing is the same for all.
        requestResetAfterAnswer(deps, body.email)
        set.status = 202
        return { delivery: deps.mailer.delivery }
      },
      {
        parse: 'json',
        ...strictBody(ForgotPassword),
        response: { 202: ResetRequested },
        detail: detail('Mail a password-reset link (30 minutes, single use); the same answer whether or not the email has an account'),
      },
    )
    .post(
      '/password/reset',
      async ({ body }) => {
        await resetPassword(deps, body.token, body.password)
        return { ok: true as const }
      },
      {
        parse: 'json',
        ...strictBody(NewPassword),
        response: { 200: LoggedOut },
        detail: detail("Set a new password with a reset link's token; ends every session of the user"),
      },
    )
    .post('/verify', async ({ body, cookie, client }) => startSession(deps, await verifyEmail(deps, body.token), cookie, client.https), {
      parse: 'json',
      ...strictBody(EmailToken),
      response: { 200: Me },
      detail: detail("Confirm the email with a verification link's token and sign in (sets svc_session)"),
    })
}
