// Console sessions: a random 32-byte token in the cookie; the table stores only its SHA-256 and
// an expiry. Logout deletes the row, so a stolen cookie stops working at once.
import { and, eq, gt } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { sessions, users } from '../db/schema/index.ts'
import { sha256Hex } from '../lib/ids.ts'

export const SESSION_TTL_SECONDS = 7 * 24 * 3600

export async function createSession(db: Db, userId: string): Promise<string> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  await db.insert(sessions).values({ tokenHash: sha256Hex(token), userId, expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000) })
  return token
}

export async function sessionUser(db: Db, token: string | undefined): Promise<{ id: string; email: string } | undefined> {
  if (!token || token.length > 100) return undefined
  const [row] = await db
    .select({ id: users.id, email: users.email })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), gt(sessions.expiresAt, new Date())))
  return row
}

export async function deleteSession(db: Db, token: string | undefined): Promise<void> {
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token)))
}
