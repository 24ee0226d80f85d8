// Auth models (TypeBox values are the types).
import { t } from 'elysia'

export const Registration = t.Object({
  email: t.String({ minLength: 3, maxLength: 320, description: 'Trimmed and lower-cased before use' }),
  password: t.String({ minLength: 8, maxLength: 200, description: '8 to 200 characters' }),
})
export type Registration = typeof Registration.static

/** Loose on purpose: whatever is wrong with a login, the answer is the same 401. */
export const Login = t.Object({
  email: t.String({ minLength: 1, maxLength: 320 }),
  password: t.String({ minLength: 1, maxLength: 200 }),
})
export type Login = typeof Login.static

/**
 * `role` is `admin` for an operator (docs/operators.md): the console then links /console/admin.
 * `verified`: the user confirmed their email (docs/console.md "Email verification").
 */
export const Me = t.Object({
  id: t.String(),
  email: t.String(),
  role: t.Optional(t.Union([t.Literal('user'), t.Literal('admin')])),
  verified: t.Optional(t.Boolean()),
})
export type Me = typeof Me.static

export const LoggedOut = t.Object({ ok: t.Literal(true) })

/** Registration when the operator requires email verification: no session until the link is opened. */
export const PendingVerification = t.Object({
  id: t.String(),
  email: t.String(),
  verification: t.Union([t.Literal('email'), t.Literal('operator')], {
    description: "email: a link was mailed; operator: the link is in the operator's log (no SMTP), ask them",
  }),
})
export type PendingVerification = typeof PendingVerification.static

export const ForgotPassword = t.Object({ email: t.String({ minLength: 1, maxLength: 320 }) })

/** The same answer for every email, known or not (docs/console.md "Password reset"). */
export const ResetRequested = t.Object({
  delivery: t.Union([t.Literal('email'), t.Literal('operator')], {
    description: 'email: a link is mailed if the account exists; operator: no SMTP, ask the operator for the link',
  }),
})

export const NewPassword = t.Object({
  token: t.String({ minLength: 1, maxLength: 100, description: 'From the emailed link' }),
  password: t.String({ minLength: 8, maxLength: 200, description: '8 to 200 characters' }),
})
export type NewPassword = typeof NewPassword.static

export const EmailToken = t.Object({ token: t.String({ minLength: 1, maxLength: 100, description: 'From the emailed link' }) })
