// Single-use tokens mailed to a user (docs/console.md "Password reset", "Email verification"):
// 32 random bytes (base64url) in the link, only their SHA-256 and an expiry in user_tokens, so a
// database leak yields no usable link. Consuming one deletes every token of that user and purpose,
// so a used link, and any older link sent before it, stops working at once.
import { and, eq, lte } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { userTokens } from '../../db/schema/index.ts'
import { sha256Hex } from '../../lib/ids.ts'

export type TokenPurpose = 'reset' | 'verify'

const TOKEN_BYTES = 32
/** Longer than any token we issue; anything longer is refused before hashing. */
const MAX_TOKEN_CHARS = 100

export async function issueToken(db: Db, userId: string, purpose: TokenPurpose, ttlMs: number, nowMs: number): Promise<string> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES))).toString('base64url')
  // The user's expired tokens go as a new one arrives: the table stays bounded without a sweeper.
  await db.delete(userTokens).where(and(eq(userTokens.userId, userId), lte(userTokens.expiresAt, new Date(nowMs))))
  await db.insert(userTokens).values({ tokenHash: sha256Hex(token), userId, purpose, expiresAt: new Date(nowMs + ttlMs) })
  return token
}

/** The user a live token of `purpose` belongs to, after deleting it and its siblings; undefined when unknown, used or expired. */
export async function consumeToken(db: Db, token: string, purpose: TokenPurpose, nowMs: number): Promise<string | undefined> {
  if (token.length > MAX_TOKEN_CHARS) return undefined
  const [row] = await db
    .delete(userTokens)
    .where(and(eq(userTokens.tokenHash, sha256Hex(token)), eq(userTokens.purpose, purpose)))
    .returning({ userId: userTokens.userId, expiresAt: userTokens.expiresAt })
  if (!row) return undefined
  await db.delete(userTokens).where(and(eq(userTokens.userId, row.userId), eq(userTokens.purpose, purpose)))
  return row.expiresAt.getTime() > nowMs ? row.userId : undefined
}
