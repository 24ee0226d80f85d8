// GET/POST /api/keys, DELETE /api/keys/:id: the signed-in user's API keys. The secret is shown
// once, at creation; lists show the display prefix, status, last use and spend vs limit.
import { Elysia, t } from 'elysia'
import { and, desc, eq } from 'drizzle-orm'
import { issueKey } from '../admin/routes.ts'
import { GatewayError } from '../core/errors.ts'
import { apiKeys } from '../db/schema/index.ts'
import type { InferenceDeps } from '../inference/deps.ts'
import { formatUsd } from '../lib/money.ts'
import { requireUser } from './current-user.ts'

type KeyRow = typeof apiKeys.$inferSelect

const usd = (micros: bigint | null) => (micros === null ? null : Number(formatUsd(micros)))

export function keyView(k: KeyRow, now = Date.now()) {
  const status = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt.getTime() <= now ? 'expired' : 'active'
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    status,
    limit: usd(k.limitMicros),
    spent: usd(k.spentMicros),
    rpm: k.rpm,
    serviceMode: k.serviceMode,
    expiresAt: k.expiresAt?.toISOString() ?? null,
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    createdAt: k.createdAt.toISOString(),
  }
}

export function keysRoutes(deps: InferenceDeps) {
  return new Elysia({ prefix: '/api/keys' })
    .get('/', async ({ request }) => {
      const user = await requireUser(deps.db, request.headers)
      const rows = await deps.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(1000)
      return { items: rows.map((k) => keyView(k)), nextCursor: null }
    })
    .post(
      '/',
      async ({ request, body, set }) => {
        const user = await requireUser(deps.db, request.headers)
        if (body.expiresAt && Date.parse(body.expiresAt) <= Date.now()) throw new GatewayError('BAD_REQUEST', 'expiresAt must be in the future.')
        const { id, key } = await issueKey(deps, { userId: user.id, ...body })
        const [row] = await deps.db.select().from(apiKeys).where(eq(apiKeys.id, id))
        set.status = 201
        return { ...keyView(row!), key }
      },
      {
        body: t.Object({
          name: t.Optional(t.String({ maxLength: 100 })),
          limit: t.Optional(t.Union([t.Number({ minimum: 0, maximum: 1_000_000 }), t.Null()])),
          rpm: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 100_000 }), t.Null()])),
          expiresAt: t.Optional(t.Union([t.String({ format: 'date-time' }), t.Null()])),
          serviceMode: t.Optional(t.Literal('performance')),
        }),
      },
    )
    .delete('/:id', async ({ request, params }) => {
      const user = await requireUser(deps.db, request.headers)
      const [row] = await deps.db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, params.id), eq(apiKeys.userId, user.id)))
        .returning()
      if (!row) throw new GatewayError('NOT_FOUND', 'No such key.')
      deps.auth.invalidate(row.id)
      return keyView(row)
    })
}
