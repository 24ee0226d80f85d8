// POST /api/auth/register, /login, /logout; GET /api/auth/me (DESIGN "Console").
import { Elysia, t } from 'elysia'
import { eq } from 'drizzle-orm'
import { normalizeEmail } from '../admin/routes.ts'
import { createUser } from '../billing/accounts.ts'
import { GatewayError } from '../core/errors.ts'
import { users } from '../db/schema/index.ts'
import type { InferenceDeps } from '../inference/deps.ts'
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from './cookies.ts'
import { requireUser } from './current-user.ts'
import { createSession, deleteSession, SESSION_TTL_SECONDS } from './sessions.ts'

const Credentials = t.Object({ email: t.String({ format: 'email', maxLength: 320 }), password: t.String({ minLength: 8, maxLength: 200 }) })

// Verified when the email is unknown, so a miss costs the same time as a wrong password.
const DUMMY_HASH = Bun.password.hash('tollgate-timing-equaliser', 'argon2id')

export function authRoutes(deps: InferenceDeps, secure: (req: Request) => boolean) {
  const signIn = async (userId: string, req: Request, set: { headers: Record<string, unknown> }) => {
    const token = await createSession(deps.db, userId)
    set.headers['set-cookie'] = sessionCookie(token, SESSION_TTL_SECONDS, secure(req))
  }
  return new Elysia({ prefix: '/api/auth' })
    .post(
      '/register',
      async ({ body, request, set }) => {
        const email = normalizeEmail(body.email)
        const [exists] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
        if (exists) throw new GatewayError('CONFLICT', 'An account with this email already exists; sign in instead.')
        const user = await createUser(deps.db, email, await Bun.password.hash(body.password, 'argon2id'))
        await signIn(user.id, request, set)
        set.status = 201
        return user
      },
      { body: Credentials },
    )
    .post(
      '/login',
      async ({ body, request, set }) => {
        const [user] = await deps.db.select().from(users).where(eq(users.email, normalizeEmail(body.email)))
        const ok = user?.passwordHash ? await Bun.password.verify(body.password, user.passwordHash) : (await Bun.password.verify(body.password, await DUMMY_HASH), false)
        if (!user || !ok) throw new GatewayError('UNAUTHORIZED', 'Invalid email or password.')
        await signIn(user.id, request, set)
        return { id: user.id, email: user.email }
      },
      { body: Credentials },
    )
    .post('/logout', async ({ request, set }) => {
      await deleteSession(deps.db, readCookie(request.headers, SESSION_COOKIE))
      set.headers['set-cookie'] = clearedSessionCookie(secure(request))
      return { ok: true }
    })
    .get('/me', ({ request }) => requireUser(deps.db, request.headers))
}
