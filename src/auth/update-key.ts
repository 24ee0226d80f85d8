// Changing a key (PATCH /api/keys/:id, PATCH /api/admin/keys/:id; docs/api.md "Key settings"):
// a member absent from the body is left as it is, null clears it. The key leaves this
// instance's auth cache at once; other instances see the change within KEY_CACHE_TTL_MS.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { apiKeys } from '../db/schema/index.ts'
import { expiryOf, type KeyRequest, limitMicrosOf } from './issue-key.ts'

export type KeyPatch = Omit<KeyRequest, 'userId'>

type Columns = Partial<typeof apiKeys.$inferInsert>

/** The columns a patch sets (its settings already checked by key-settings.ts). */
export function patchColumns(p: KeyPatch): Columns {
  const set: Columns = {}
  if (p.name !== undefined) set.name = p.name
  if (p.limit !== undefined) set.limitMicros = limitMicrosOf(p.limit)
  if (p.rpm !== undefined) set.rpm = p.rpm
  if (p.expiresAt !== undefined) set.expiresAt = expiryOf(p.expiresAt)
  if (p.serviceMode !== undefined) set.serviceMode = p.serviceMode
  for (const k of ['models', 'ipAllowlist', 'tpm', 'maxConcurrent', 'limitReset'] as const) if (p[k] !== undefined) set[k] = p[k] as never
  return set
}

/** The key `keyId` (of `userId` when given) after the patch; undefined when there is no such key. */
export async function updateKey(db: Pick<Db, 'select' | 'update'>, keyId: string, userId: string | undefined, patch: KeyPatch) {
  const set = patchColumns(patch)
  const where = userId === undefined ? eq(apiKeys.id, keyId) : and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId))
  if (Object.keys(set).length === 0) return (await db.select().from(apiKeys).where(where))[0]
  const [row] = await db.update(apiKeys).set(set).where(where).returning()
  return row
}
