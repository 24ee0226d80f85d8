// The demo's key and console password across runs: kept in a file beside the embedded database
// (PGlite under ./data by default), mode 0600, so `bun run demo` on kept data prints the same
// key and password instead of new ones. A kept secret is reused only while the database still
// accepts it (key not revoked or expired, password unchanged); otherwise a new one replaces it
// and the run says so. With an in-memory database nothing outlives the run, so nothing is kept.
import { chmod, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import { issueKey } from '../auth/issue-key.ts'
import type { Db } from '../db/client.ts'
import { apiKeys, users } from '../db/schema/index.ts'
import { base62, sha256Hex } from '../lib/ids.ts'

/** `new`: first run (or nothing kept); `kept`: the last run's; `rotated`: the kept one stopped working. */
export type SecretState = 'new' | 'kept' | 'rotated'

export interface DemoSecrets {
  key: string
  password: string
  keyState: SecretState
  passwordState: SecretState
  /** Where they are kept; undefined with an in-memory database. */
  file: string | undefined
}

type Kept = { key?: string; password?: string }

/** The file beside the database: ./data/demo.json for the default ./data/pglite (or a Postgres URL). */
export function secretsFile(databaseUrl: string | undefined): string | undefined {
  if (databaseUrl?.startsWith('memory:')) return undefined
  const dir = databaseUrl?.startsWith('file:') ? databaseUrl.slice('file:'.length).replace(/^\/\//, '') : './data/pglite'
  return join(dirname(dir), 'demo.json')
}

async function readKept(file: string | undefined): Promise<Kept> {
  if (!file) return {}
  try {
    const kept = (await Bun.file(file).json()) as Kept | null
    return {
      key: typeof kept?.key === 'string' ? kept.key : undefined,
      password: typeof kept?.password === 'string' ? kept.password : undefined,
    }
  } catch {
    return {}
  }
}

async function keyWorks(db: Db, userId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.keyHash, sha256Hex(key)),
        eq(apiKeys.userId, userId),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date())),
      ),
    )
  return Boolean(row)
}

const stateOf = (kept: string | undefined, works: boolean): SecretState => (works ? 'kept' : kept ? 'rotated' : 'new')

export async function demoSecrets(db: Db, userId: string, file: string | undefined): Promise<DemoSecrets> {
  const kept = await readKept(file)
  const keyOk = kept.key !== undefined && (await keyWorks(db, userId, kept.key))
  const [user] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId))
  const passwordOk = kept.password !== undefined && !!user?.hash && (await Bun.password.verify(kept.password, user.hash))
  const key = keyOk ? kept.key! : (await issueKey({ db }, { userId, name: 'demo' })).key
  const password = passwordOk ? kept.password! : base62(16)
  const passwordHash = passwordOk ? undefined : await Bun.password.hash(password, 'argon2id')
  // Enabled and confirmed, so the printed sign-in works whatever REQUIRE_EMAIL_VERIFICATION says.
  // A new password ends the sessions of the old one (docs/console.md "Sessions").
  const credentialVersion = passwordOk ? undefined : sql`${users.credentialVersion} + 1`
  await db.update(users).set({ passwordHash, credentialVersion, disabledAt: null, emailVerifiedAt: new Date() }).where(eq(users.id, userId))
  if (file && (!keyOk || !passwordOk)) {
    await mkdir(dirname(file), { recursive: true })
    await Bun.write(file, `${JSON.stringify({ key, password })}\n`)
    await chmod(file, 0o600)
  }
  return { key, password, keyState: stateOf(kept.key, keyOk), passwordState: stateOf(kept.password, passwordOk), file }
}
