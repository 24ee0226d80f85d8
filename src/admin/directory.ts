// Admin reads and switches over users and keys (README "Admin API"): pages of users with their
// balances, a user's keys, disable/enable. Money leaves as USD numbers with 6 decimals.
import { and, asc, desc, eq, gt, ilike, sql } from 'drizzle-orm'
import { accountView } from '../billing/accounts.ts'
import type { Db } from '../db/client.ts'
import type { Store } from '../store/types.ts'
import { accounts, apiKeys, users } from '../db/schema/index.ts'
import { formatUsd } from '../lib/money.ts'
import { normalizeEmail } from '../lib/email.ts'
import { keySpends } from '../billing/period-spend.ts'
import { settingsView } from '../console/keys/view.ts'

const usd = (micros: bigint | null) => (micros === null ? null : Number(formatUsd(micros)))
const iso = (d: Date | null) => d?.toISOString() ?? null

/** Users in id order after `cursor` (the previous page's nextCursor), optionally those whose email contains `email`. */
export async function listUsers(db: Db, q: { limit: number; cursor?: string; email?: string }) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      disabledAt: users.disabledAt,
      balance: accounts.balanceMicros,
    })
    .from(users)
    .leftJoin(accounts, eq(accounts.userId, users.id))
    .where(
      and(
        q.cursor ? gt(users.id, q.cursor) : undefined,
        q.email ? ilike(users.email, `%${normalizeEmail(q.email).replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
      ),
    )
    .orderBy(asc(users.id))
    .limit(q.limit + 1)
  const page = rows.slice(0, q.limit)
  return {
    items: page.map((u) => ({
      id: u.id,
      email: u.email,
      role: u.role,
      createdAt: u.createdAt.toISOString(),
      disabled: u.disabledAt !== null,
      balance: usd(u.balance ?? 0n),
    })),
    nextCursor: rows.length > q.limit ? page.at(-1)!.id : null,
  }
}

export async function userExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id))
  return row !== undefined
}

/** Every key of a user, newest first (the secret is never stored, only its prefix). */
export async function listKeys(db: Db, userId: string) {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt))
}

/** Keys of one user as the admin API shows them: `spent` is the current period's with limitReset; `rpm` the key's own or the default (DEFAULT_RPM), as the console shows it. */
export async function keyViews(deps: { db: Db; now: () => number; config: { defaultRpm: number } }, rows: (typeof apiKeys.$inferSelect)[]) {
  const now = deps.now()
  const spends = await keySpends(deps.db, rows, now)
  return rows.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    limit: usd(k.limitMicros),
    spent: usd(spends.get(k.id)!),
    rpm: k.rpm ?? deps.config.defaultRpm,
    serviceMode: k.serviceMode,
    expiresAt: iso(k.expiresAt),
    revokedAt: iso(k.revokedAt),
    lastUsedAt: iso(k.lastUsedAt),
    createdAt: k.createdAt.toISOString(),
    ...settingsView(k, now),
  }))
}

/** Disables (keys refused, console refused) or re-enables a user; false when there is no such user. */
export async function setDisabled(db: Pick<Db, 'update'>, id: string, disabled: boolean): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ disabledAt: disabled ? sql`coalesce(${users.disabledAt}, now())` : null })
    .where(eq(users.id, id))
    .returning({ id: users.id })
  return rows.length > 0
}

/** One user as the operator's users page shows it: balance and reserved (live when the store holds them), role, state. */
export async function userSummary(db: Db, store: Store, id: string) {
  const [u] = await db
    .select({ id: users.id, email: users.email, role: users.role, createdAt: users.createdAt, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, id))
  if (!u) return undefined
  const { balance, reserved } = await accountView(db, store, id)
  return {
    id: u.id,
    email: u.email,
    role: u.role,
    createdAt: u.createdAt.toISOString(),
    disabled: u.disabledAt !== null,
    balance: usd(balance),
    reserved: usd(reserved),
  }
}
