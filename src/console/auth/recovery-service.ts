// Password reset and email verification (docs/console.md "Password reset", "Email verification").
// A reset request answers the same whether or not the email has an account, and at the same
// time: the answer leaves before any work on the email (the per-email limit, the lookup, the
// token, the mail), which runs after it and only for an account makes a link. Links point at PUBLIC_URL (never the request's Host) and
// carry the token in the fragment, which browsers send to no server.
import { and, eq, isNull, sql } from 'drizzle-orm'
import { GatewayError } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { sessions, users } from '../../db/schema/index.ts'
import { normalizeEmail } from '../../lib/email.ts'
import { sha256Hex } from '../../lib/ids.ts'
import type { Logger } from '../../lib/log.ts'
import type { Store } from '../../store/types.ts'
import { MAIL_LIMIT, withinLimit } from '../http/limits.ts'
import type { Mail, Mailer } from '../mail/mailer.ts'
import { resetMail, verifyMail } from '../mail/messages.ts'
import type { Me } from './model.ts'
import { consumeToken, issueToken } from './tokens.ts'

export const RESET_TTL_MINUTES = 30
export const VERIFY_TTL_HOURS = 24

export interface RecoveryDeps {
  db: Db
  store: Store
  mailer: Mailer
  log: Logger
  now: () => number
  config: { publicUrl: string | undefined }
}

const INVALID_LINK = 'This link is invalid, used or expired; ask for a new one.'

/** Hands the mail over without waiting for the mail server; a failure is the operator's to see. */
function dispatch(deps: RecoveryDeps, mail: Mail): void {
  deps.mailer.send(mail).catch((e) => deps.log.error('console email failed', { to: mail.to, subject: mail.subject, err: e }))
}

const link = (deps: RecoveryDeps, page: string, token: string) => `${deps.config.publicUrl ?? ''}/console/${page}#token=${token}`

/** Per mailbox, whoever asks: keyed by the address's hash, so Redis holds no email addresses. */
const mailAllowed = (deps: RecoveryDeps, email: string) => withinLimit(deps.store, MAIL_LIMIT, sha256Hex(email), deps.now())

/** Starts requestReset without waiting for it: the caller answers first. */
export function requestResetAfterAnswer(deps: RecoveryDeps, rawEmail: string): void {
  setImmediate(() => requestReset(deps, rawEmail).catch((e) => deps.log.error('password reset request failed', { err: e })))
}

export async function requestReset(deps: RecoveryDeps, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail)
  if (!(await mailAllowed(deps, email))) return deps.log.info('password reset not mailed: per-email limit reached')
  const [user] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.disabledAt)))
  if (!user) return
  const token = await issueToken(deps.db, user.id, 'reset', RESET_TTL_MINUTES * 60_000, deps.now())
  dispatch(deps, resetMail(email, link(deps, 'reset', token), RESET_TTL_MINUTES))
}

/**
 * Sets the new password, consumes the link and ends every session of the user: the credential
 * version moves, so a sign-in that verified the old password races the reset in vain.
 */
export async function resetPassword(deps: RecoveryDeps, token: string, password: string): Promise<void> {
  const userId = await consumeToken(deps.db, token, 'reset', deps.now())
  if (!userId) throw new GatewayError('BAD_REQUEST', INVALID_LINK)
  const passwordHash = await Bun.password.hash(password, 'argon2id')
  const [user] = await deps.db.select({ verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId))
  // The link reached the mailbox, so it also proves the email.
  await deps.db
    .update(users)
    .set({
      passwordHash,
      credentialVersion: sql`${users.credentialVersion} + 1`,
      emailVerifiedAt: user?.verifiedAt ?? new Date(deps.now()),
    })
    .where(eq(users.id, userId))
  await deps.db.delete(sessions).where(eq(sessions.userId, userId))
}

/** Mails a verification link, at most MAIL_LIMIT a window per address. */
export async function sendVerification(deps: RecoveryDeps, user: Me): Promise<void> {
  if (!(await mailAllowed(deps, user.email))) return deps.log.info('verification not mailed: per-email limit reached')
  const token = await issueToken(deps.db, user.id, 'verify', VERIFY_TTL_HOURS * 3_600_000, deps.now())
  dispatch(deps, verifyMail(user.email, link(deps, 'verify', token), VERIFY_TTL_HOURS))
}

/** Confirms the email of the link's user; the caller signs them in. */
export async function verifyEmail(deps: RecoveryDeps, token: string): Promise<Me & { credentialVersion: number }> {
  const userId = await consumeToken(deps.db, token, 'verify', deps.now())
  if (!userId) throw new GatewayError('BAD_REQUEST', INVALID_LINK)
  const [user] = await deps.db
    .update(users)
    .set({ emailVerifiedAt: new Date(deps.now()) })
    .where(and(eq(users.id, userId), isNull(users.disabledAt)))
    .returning({ id: users.id, email: users.email, role: users.role, credentialVersion: users.credentialVersion })
  if (!user) throw new GatewayError('BAD_REQUEST', INVALID_LINK)
  return { ...user, verified: true }
}
