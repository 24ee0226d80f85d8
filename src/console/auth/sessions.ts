// Console sessions: 32 random bytes (base64url) in the cookie; the table stores only their
// SHA-256 and an expiry, so a database leak yields no usable cookie. Logout deletes the row, so
// the cookie stops working at once on every instance. A session holds the user's credential
// version read with the password that made it: a password change moves the version, so every
// session made before it — even one saved after the change committed — stops working.
import { and, eq, gt, isNull, lte } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { sessions, users } from '../../db/schema/index.ts'
import { sha256Hex } from '../../lib/ids.ts'

/** `verified`: the user confirmed their email (docs/console.md "Email verification"). */
export type SessionUser = { id: string; email: string; role: 'user' | 'admin'; verified: boolean }

const TOKEN_BYTES = 32

/**
 * `credentialVersion`: the user's, from the same row read that verified the credential (a wrong
 * one only makes a session that never opens).
 */
export async function createSession(db: Db, userId: string, ttlSeconds: number, nowMs: number, credentialVersion = 0): Promise<string> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES))).toString('base64url')
  // The user's expired rows go as a new one arrives: the table stays bounded without a sweeper.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, new Date(nowMs))))
  await db
    .insert(sessions)
    .values({ tokenHash: sha256Hex(token), userId, credentialVersion, expiresAt: new Date(nowMs + ttlSeconds * 1000) })
  return token
}

export async function sessionUser(db: Db, token: string | undefined, nowMs: number): Promise<SessionUser | undefined> {
  if (!token || token.length > 100) return undefined
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role, verifiedAt: users.emailVerifiedAt })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.credentialVersion, sessions.credentialVersion)))
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), gt(sessions.expiresAt, new Date(nowMs)), isNull(users.disabledAt)))
  return row && { id: row.id, email: row.email, role: row.role, verified: row.verifiedAt !== null }
}

export async function deleteSession(db: Db, token: string | undefined): Promise<void> {
  if (token && token.length <= 100) await db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token)))
}
