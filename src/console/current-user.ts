// The signed-in user of a console request, from the svc_session cookie.
import { GatewayError } from '../core/errors.ts'
import type { Db } from '../db/client.ts'
import { readCookie, SESSION_COOKIE } from './cookies.ts'
import { sessionUser } from './sessions.ts'

export async function requireUser(db: Db, headers: Headers): Promise<{ id: string; email: string }> {
  const user = await sessionUser(db, readCookie(headers, SESSION_COOKIE))
  if (!user) throw new GatewayError('UNAUTHORIZED', 'Sign in first: no valid console session.')
  return user
}
