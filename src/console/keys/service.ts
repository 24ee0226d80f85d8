// The signed-in user's API keys: list (keyset pages), create through issueKey (auth/issue-key.ts, the
// admin API's path too), revoke. Revocation drops the key from this instance's auth cache at once; other
// instances refuse it within KEY_CACHE_TTL_MS.
import { and, eq, sql } from 'drizzle-orm'
import { issueKey } from '../../auth/issue-key.ts'
import { GatewayError } from '../../core/errors.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { parseIsoDateTime } from '../../lib/dates.ts'
import { formatUsd } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import { after, cursorAt, DEFAULT_PAGE, newestFirst, page } from '../http/pagination.ts'
import type { CreateKey, KeyView } from './model.ts'

type KeyRow = typeof apiKeys.$inferSelect

const usd = (micros: bigint) => Number(formatUsd(micros))
const iso = (d: Date | null) => d?.toISOString() ?? null

export function keyView(k: KeyRow, defaultRpm: number, nowMs: number): KeyView {
  const status = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt.getTime() <= nowMs ? 'expired' : 'active'
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    status,
    limit: k.limitMicros === null ? null : usd(k.limitMicros),
    spent: usd(k.spentMicros),
    remaining: k.limitMicros === null ? null : usd(k.limitMicros > k.spentMicros ? k.limitMicros - k.spentMicros : 0n),
    rpm: k.rpm ?? defaultRpm,
    serviceMode: k.serviceMode,
    expiresAt: iso(k.expiresAt),
    lastUsedAt: iso(k.lastUsedAt),
    revokedAt: iso(k.revokedAt),
    createdAt: k.createdAt.toISOString(),
  }
}

export async function listKeys(deps: Pick<ConsoleDeps, 'db' | 'now' | 'config'>, userId: string, q: { limit?: number; cursor?: string }) {
  const limit = q.limit ?? DEFAULT_PAGE
  const rows = await deps.db
    .select({ row: apiKeys, at: cursorAt(apiKeys.createdAt) })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), after(apiKeys.createdAt, apiKeys.id, q.cursor)))
    .orderBy(newestFirst(apiKeys.createdAt, apiKeys.id))
    .limit(limit + 1)
  const p = page(
    rows.map((r) => ({ ...r, id: r.row.id })),
    limit,
  )
  const now = deps.now()
  return { items: p.items.map((k) => keyView(k, deps.config.defaultRpm, now)), nextCursor: p.nextCursor }
}

export async function createKey(deps: Pick<ConsoleDeps, 'db' | 'now' | 'config'>, userId: string, input: CreateKey) {
  const quota = deps.config.defaultRpm
  // A key's rpm may only tighten the operator's per-key quota, never raise it.
  if (input.rpm != null && input.rpm > quota) throw new GatewayError('BAD_REQUEST', `rpm must be from 1 to ${quota}.`)
  // An impossible date is refused by issueKey; one that parses must lie ahead.
  if (input.expiresAt && (parseIsoDateTime(input.expiresAt)?.getTime() ?? Infinity) <= deps.now())
    throw new GatewayError('BAD_REQUEST', 'expiresAt must be in the future.')
  const { id, key } = await issueKey(deps, { userId, ...input })
  const [row] = await deps.db.select().from(apiKeys).where(eq(apiKeys.id, id))
  return { ...keyView(row!, quota, deps.now()), key }
}

export async function revokeKey(
  deps: Pick<ConsoleDeps, 'db' | 'now' | 'config' | 'auth'>,
  userId: string,
  keyId: string,
): Promise<KeyView> {
  const [row] = await deps.db
    .update(apiKeys)
    // A second revocation keeps the first one's time.
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .returning()
  if (!row) throw new GatewayError('NOT_FOUND', 'No such key.')
  deps.auth.invalidate(row.id)
  return keyView(row, deps.config.defaultRpm, deps.now())
}
