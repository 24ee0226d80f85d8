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

/** `role` is `admin` for an operator (docs/operators.md): the console then links /console/admin. */
export const Me = t.Object({ id: t.String(), email: t.String(), role: t.Optional(t.Union([t.Literal('user'), t.Literal('admin')])) })
export type Me = typeof Me.static

export const LoggedOut = t.Object({ ok: t.Literal(true) })
