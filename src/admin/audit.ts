// The admin audit log (docs/operators.md "Audit log"): one row per change made through the admin
// API, with who made it, what it touched and the state before and after. Read newest first with
// the console's keyset pagination.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { adminAudit } from '../db/schema/index.ts'
import { after, cursorAt, newestFirst, page } from '../console/http/pagination.ts'
import { base62 } from '../lib/ids.ts'

/** Who made a change: the ADMIN_TOKEN, the admin:grant command, or an admin signed in to the console. */
export type Actor = { kind: 'token' } | { kind: 'cli' } | { kind: 'user'; id: string; email: string }

export interface Change {
  action: string
  target?: string
  before?: unknown
  after?: unknown
  note?: string
}

/** `db` may be a transaction: the row then commits, or not, with the change it records. */
export async function recordAudit(db: Pick<Db, 'insert'>, actor: Actor, c: Change): Promise<void> {
  await db.insert(adminAudit).values({
    id: `aud_${base62(20)}`,
    actor: actor.kind === 'user' ? actor.id : actor.kind,
    actorEmail: actor.kind === 'user' ? actor.email : null,
    action: c.action,
    target: c.target ?? null,
    before: c.before ?? null,
    after: c.after ?? null,
    note: c.note ?? null,
  })
}

export async function listAudit(db: Db, q: { limit: number; cursor?: string; target?: string }) {
  const rows = await db
    .select({ row: adminAudit, at: cursorAt(adminAudit.at) })
    .from(adminAudit)
    .where(and(q.target ? eq(adminAudit.target, q.target) : undefined, after(adminAudit.at, adminAudit.id, q.cursor)))
    .orderBy(newestFirst(adminAudit.at, adminAudit.id))
    .limit(q.limit + 1)
  const { items, nextCursor } = page(
    rows.map((r) => ({ row: r.row, at: r.at, id: r.row.id })),
    q.limit,
  )
  return {
    items: items.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: r.actor,
      actorEmail: r.actorEmail,
      action: r.action,
      target: r.target,
      before: r.before,
      after: r.after,
      note: r.note,
    })),
    nextCursor,
  }
}
