// Accounts: register and verify passwords (Bun.password, argon2id). Emails are normalised; a
// login never reveals whether the email exists — an unknown email costs the same argon2id
// verification as a wrong password and gets the same answer.
import { eq } from 'drizzle-orm'
import { createUser } from '../../billing/accounts.ts'
import { GatewayError } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { users } from '../../db/schema/index.ts'
import { emailIssue, normalizeEmail } from '../../lib/email.ts'
import type { Login, Me, Registration } from './model.ts'

const EMAIL_TAKEN = 'An account with this email already exists; sign in instead.'

export async function register(db: Db, input: Registration): Promise<Me & { credentialVersion: number }> {
  const email = normalizeEmail(input.email)
  const issue = emailIssue(email)
  if (issue) throw new GatewayError('VALIDATION_FAILED', `email: ${issue}`, { param: 'email' })
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email))
  if (taken) throw new GatewayError('CONFLICT', EMAIL_TAKEN)
  const hash = await Bun.password.hash(input.password, 'argon2id')
  try {
    return { ...(await createUser(db, email, hash)), role: 'user', verified: false, credentialVersion: 0 }
  } catch (e) {
    // Two registrations of one email at once: the unique index decides.
    if (isUniqueViolation(e)) throw new GatewayError('CONFLICT', EMAIL_TAKEN)
    throw e
  }
}

let dummyHash: Promise<string> | undefined
/** Verified when the email is unknown or has no password, so every miss costs the same. */
const equaliser = () => (dummyHash ??= Bun.password.hash(crypto.randomUUID(), 'argon2id'))

/** The user of a right password, and whether their email is confirmed (docs/console.md "Email verification"). */
/** `credentialVersion` is the one of the row whose hash matched: the session is bound to it. */
export async function verifyLogin(db: Db, input: Login): Promise<Me & { verified: boolean; credentialVersion: number }> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(input.email)))
  const ok = user?.passwordHash
    ? await Bun.password.verify(input.password, user.passwordHash)
    : (await Bun.password.verify(input.password, await equaliser()), false)
  if (!user || !ok || user.disabledAt !== null) throw new GatewayError('UNAUTHORIZED', 'Invalid email or password.')
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    verified: user.emailVerifiedAt !== null,
    credentialVersion: user.credentialVersion,
  }
}

function isUniqueViolation(e: unknown): boolean {
  for (let cur: unknown = e; cur; cur = (cur as { cause?: unknown }).cause) if ((cur as { code?: unknown }).code === '23505') return true
  return false
}
