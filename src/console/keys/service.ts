// The signed-in user's API keys: list (keyset pages), create through issueKey (auth/issue-key.ts, the
// admin API's path too), change (auth/update-key.ts), revoke. A change or a revocation drops the key
// from this instance's auth cache at once; other instances see it within KEY_CACHE_TTL_MS.
import { and, eq, sql } from 'drizzle-orm'
import { issueKey } from '../../auth/issue-key.ts'
import { checkKeySettings } from '../../auth/key-settings.ts'
import { checkOwnerPatch } from '../../auth/operator-limits.ts'
import { keySpends } from '../../billing/period-spend.ts'
import { updateKey } from '../../auth/update-key.ts'
import { GatewayError } from '../../core/errors.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { parseIsoDateTime } from '../../lib/dates.ts'
import type { ConsoleDeps } from '../deps.ts'
import { after, cursorAt, DEFAULT_PAGE, newestFirst, page } from '../http/pagination.ts'
import { keyView } from './view.ts'
import type { CreateKey, KeyView, UpdateKey } from './model.ts'

type Deps = Pick<ConsoleDeps, 'db' | 'now' | 'config' | 'catalog'>

export async function listKeys(deps: Deps, userId: string, q: { limit?: number; cursor?: string }) {
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
  const spends = await keySpends(deps.db, p.items, now)
  return { items: p.items.map((k) => keyView(k, deps.config.defaultRpm, now, spends.get(k.id)!)), nextCursor: p.nextCursor }
}

/** The rpm and expiry rules of the console (the admin API sets any rpm; the owner may lower the operator's). */
function checkLimits(deps: Deps, input: UpdateKey, operatorRpm?: number): void {
  const quota = operatorRpm ?? deps.config.defaultRpm
  // A key's rpm may only tighten the operator's per-key quota, never raise it.
  if (input.rpm != null && input.rpm > quota) throw new GatewayError('BAD_REQUEST', `rpm must be from 1 to ${quota}.`)
  // An impossible date is refused by issueKey; one that parses must lie ahead.
  if (input.expiresAt && (parseIsoDateTime(input.expiresAt)?.getTime() ?? Infinity) <= deps.now())
    throw new GatewayError('BAD_REQUEST', 'expiresAt must be in the future.')
}

const slugs = (deps: Deps) => deps.catalog.all().map((m) => m.id)

export async function createKey(deps: Deps, userId: string, input: CreateKey) {
  checkLimits(deps, input)
  const settings = checkKeySettings(input, slugs(deps))
  const { id, key } = await issueKey(deps, { userId, ...input, ...settings })
  return { ...(await viewOf(deps, userId, id)), key }
}

/** The owner's change: limits the operator set may be tightened, not lifted (docs/console.md "API keys"). */
export async function changeKey(deps: Deps & Pick<ConsoleDeps, 'auth'>, userId: string, keyId: string, input: UpdateKey) {
  const settings = checkKeySettings(input, slugs(deps))
  const patch = { ...input, ...settings }
  // Checked against the operator's limits under the key's row lock: an admin change waits or is seen.
  const row = await deps.db.transaction(async (tx) => {
    const [key] = await tx
      .select({ limits: apiKeys.operatorLimits })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
      .for('update')
    if (!key) return undefined
    checkOwnerPatch(key.limits, patch)
    checkLimits(deps, input, key.limits?.rpm)
    return updateKey(tx, keyId, userId, patch)
  })
  if (!row) throw new GatewayError('NOT_FOUND', 'No such key.')
  deps.auth.invalidate(row.id)
  return viewOf(deps, userId, row.id)
}

async function viewOf(deps: Deps, userId: string, keyId: string): Promise<KeyView> {
  const [row] = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
  const now = deps.now()
  const spends = await keySpends(deps.db, [row!], now)
  return keyView(row!, deps.config.defaultRpm, now, spends.get(keyId)!)
}

export async function revokeKey(deps: Deps & Pick<ConsoleDeps, 'auth'>, userId: string, keyId: string): Promise<KeyView> {
  const [row] = await deps.db
    .update(apiKeys)
    // A second revocation keeps the first one's time.
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .returning()
  if (!row) throw new GatewayError('NOT_FOUND', 'No such key.')
  deps.auth.invalidate(row.id)
  return viewOf(deps, userId, row.id)
}
