// Operator roles (docs/operators.md "Admins"): `admin` may use the admin API and /console/admin
// with a console session; `user` is everyone else. Set through the admin API or, for the first
// admin, `bun run admin:grant <email>` (grant-cli.ts). A change never leaves the service without
// an enabled admin once it has one (docs/operators.md "Admins"): the rule is checked in the
// change's own transaction, under locks, so two admins demoting each other cannot both succeed.
import { retryingTransaction } from '../db/conflict-retry.ts'
import { and, eq, isNull } from 'drizzle-orm'
import { GatewayError } from '../core/errors.ts'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema/index.ts'
import { normalizeEmail } from '../lib/email.ts'

export type Role = 'user' | 'admin'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export const LAST_ADMIN = 'This is the last enabled admin: make another user an admin first.'

/**
 * Locks every enabled admin, in id order (so concurrent changes queue instead of deadlocking),
 * and refuses when `userId` is the only one left: its demotion or disabling would leave none. A
 * change that committed while this waited is seen: a row no longer an admin drops out.
 */
export async function keepAnAdmin(tx: Pick<Tx, 'select'>, userId: string): Promise<void> {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
    .orderBy(users.id)
    .for('update')
  if (admins.length > 0 && admins.every((a) => a.id === userId)) throw new GatewayError('CONFLICT', LAST_ADMIN)
}

/**
 * The role before and after; undefined when there is no such user. `audit` runs in the same
 * transaction, so the change and its audit row commit together.
 */
export async function setRole(
  db: Db,
  userId: string,
  role: Role,
  audit?: (tx: Tx, before: Role) => Promise<void>,
): Promise<{ before: Role; after: Role } | undefined> {
  return retryingTransaction(db, async (tx) => {
    if (role !== 'admin') await keepAnAdmin(tx, userId)
    const [row] = await tx.select({ role: users.role }).from(users).where(eq(users.id, userId)).for('update')
    if (!row) return undefined
    if (row.role !== role) await tx.update(users).set({ role }).where(eq(users.id, userId))
    await audit?.(tx, row.role)
    return { before: row.role, after: role }
  })
}

/** The user of `email`, now an admin; undefined when no account has that email. */
export async function grantAdminByEmail(db: Db, email: string): Promise<{ id: string; email: string } | undefined> {
  const [row] = await db
    .update(users)
    .set({ role: 'admin' })
    .where(eq(users.email, normalizeEmail(email)))
    .returning({ id: users.id, email: users.email })
  return row
}
