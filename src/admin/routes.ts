// Admin API (DESIGN "Operator contract"): Bearer $ADMIN_TOKEN; absent token → the routes 404.
import { Elysia, t } from 'elysia'
import { eq } from 'drizzle-orm'
import { generateApiKey } from '../auth/api-keys.ts'
import { applyMovement, createUser } from '../billing/accounts.ts'
import { refund } from '../billing/refunds.ts'
import { readCatalogFile, upsertCatalog } from '../catalog/file.ts'
import { GatewayError } from '../core/errors.ts'
import { apiKeys, users } from '../db/schema/index.ts'
import { checkParams, consoleBody } from '../http/console-body.ts'
import { consoleError, consoleErrorHook } from '../http/console-error.ts'
import type { AppDeps as InferenceDeps } from '../runtime.ts'
import { parseIsoDateTime } from '../lib/dates.ts'
import { base62 } from '../lib/ids.ts'
import { formatUsd, usdToMicros } from '../lib/money.ts'
import { startupFailure } from '../lib/startup-error.ts'
import { listKeys, listUsers, setDisabled, userExists } from './directory.ts'
import { adminGate } from './gate.ts'

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

const MAX_ADJUST_USD = 10_000

/** A key for `userId` (used by the admin API and the console). */
export async function issueKey(
  deps: Pick<InferenceDeps, 'db'>,
  input: { userId: string; name?: string; limit?: number | null; rpm?: number | null; expiresAt?: string | null; serviceMode?: string },
) {
  const limitMicros = input.limit == null ? null : usdToMicros(input.limit)
  if (limitMicros === undefined || (limitMicros !== null && limitMicros < 0n))
    throw new GatewayError('BAD_REQUEST', 'limit must be a non-negative USD amount with at most 6 decimals.')
  const expiresAt = input.expiresAt ? (parseIsoDateTime(input.expiresAt) ?? null) : null
  if (input.expiresAt && !expiresAt)
    throw new GatewayError('BAD_REQUEST', 'expiresAt must be a real ISO 8601 date-time with a time zone (e.g. 2030-01-31T00:00:00Z).')
  const { secret, hash, prefix } = generateApiKey()
  const id = `key_${base62(20)}`
  await deps.db.insert(apiKeys).values({
    id,
    userId: input.userId,
    name: input.name ?? '',
    keyHash: hash,
    prefix,
    limitMicros,
    rpm: input.rpm ?? null,
    serviceMode: input.serviceMode ?? 'performance',
    expiresAt,
  })
  return { id, key: secret, prefix }
}

export function adminRoutes(deps: InferenceDeps) {
  const gate = adminGate(deps)
  return (
    new Elysia({ prefix: '/api/admin' })
      .onError(consoleErrorHook(deps.log))
      // The gate (gate.ts) comes before the body is read and before any validation: an
      // unauthenticated caller learns nothing, not even whether its body would have been valid.
      .onParse(async ({ request, contentType, server }) => {
        await gate(request, server)
        return consoleBody(request, contentType, deps.config.maxBodyBytes)
      })
      .onTransform(async ({ request, server, set, query, params }) => {
        Object.assign(set.headers, await gate(request, server))
        checkParams(query, params)
      })
      .post(
        '/users',
        async ({ body }) => {
          const email = normalizeEmail(body.email)
          const passwordHash = body.password ? await Bun.password.hash(body.password, 'argon2id') : null
          const [exists] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
          if (exists) return consoleError(409, 'CONFLICT', 'A user with this email already exists.')
          return createUser(deps.db, email, passwordHash)
        },
        {
          body: t.Object({
            email: t.String({ format: 'email', maxLength: 320 }),
            password: t.Optional(t.String({ minLength: 8, maxLength: 200 })),
          }),
        },
      )
      .post(
        '/users/:id/credits',
        async ({ params, body, request }) => {
          const micros = usdToMicros(body.amount)
          if (micros === undefined || micros === 0n || body.amount > MAX_ADJUST_USD || body.amount < -MAX_ADJUST_USD)
            return consoleError(
              400,
              'BAD_REQUEST',
              `amount must be a non-zero USD amount within ±${MAX_ADJUST_USD} with at most 6 decimals.`,
            )
          const [user] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, params.id))
          if (!user) return consoleError(404, 'NOT_FOUND', 'No such user.')
          const idem = request.headers.get('idempotency-key')
          const balance = await applyMovement(deps.db, deps.store, {
            userId: user.id,
            amountMicros: micros,
            kind: 'adjustment',
            method: 'admin',
            reference: idem ? `admin:${user.id}:${idem}` : `admin:${base62(24)}`,
            meta: body.note ? { note: body.note } : undefined,
          })
          if (balance === undefined) return consoleError(409, 'CONFLICT', 'This Idempotency-Key was already used.')
          return { balance: Number(formatUsd(balance)) }
        },
        { body: t.Object({ amount: t.Number(), note: t.Optional(t.String({ maxLength: 500 })) }) },
      )
      .post(
        '/keys',
        async ({ body }) => {
          const [user] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, body.userId))
          if (!user) return consoleError(404, 'NOT_FOUND', 'No such user.')
          const { id, key } = await issueKey(deps, body)
          return { id, key }
        },
        {
          body: t.Object({
            userId: t.String(),
            name: t.Optional(t.String({ maxLength: 100 })),
            limit: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()])),
            rpm: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 1_000_000 }), t.Null()])),
            expiresAt: t.Optional(t.Union([t.String(), t.Null()])),
            serviceMode: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
          }),
        },
      )
      .post(
        '/refunds',
        async ({ body }) => {
          const result = await refund(deps, body.transactionId, body.amount, body.note)
          return {
            id: result.id,
            refundOf: body.transactionId,
            amount: Number(formatUsd(result.amount)),
            balance: Number(formatUsd(result.balance)),
          }
        },
        {
          body: t.Object({
            transactionId: t.String(),
            amount: t.Optional(t.Number({ exclusiveMinimum: 0 })),
            note: t.Optional(t.String({ maxLength: 500 })),
          }),
        },
      )
      .get('/users', ({ query }) => listUsers(deps.db, { limit: query.limit ?? 100, cursor: query.cursor, email: query.email }), {
        query: t.Object({
          limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, error: 'limit must be an integer from 1 to 500.' })),
          cursor: t.Optional(t.String({ maxLength: 200 })),
          email: t.Optional(t.String({ maxLength: 320 })),
        }),
      })
      .get('/users/:id/keys', async ({ params }) =>
        (await userExists(deps.db, params.id))
          ? { items: await listKeys(deps.db, params.id) }
          : consoleError(404, 'NOT_FOUND', 'No such user.'),
      )
      .post('/users/:id/:action', async ({ params }) => {
        if (params.action !== 'disable' && params.action !== 'enable') return consoleError(404, 'NOT_FOUND', 'No such endpoint.')
        const disabled = params.action === 'disable'
        if (!(await setDisabled(deps.db, params.id, disabled))) return consoleError(404, 'NOT_FOUND', 'No such user.')
        // At once on this instance; other instances drop cached keys within KEY_CACHE_TTL_MS.
        deps.auth.invalidateUser(params.id)
        return { id: params.id, disabled }
      })
      .post('/catalog/reload', async () => {
        const path = deps.config.catalogFile
        if (!path) return consoleError(409, 'CONFLICT', 'CATALOG_FILE is not set on this instance: there is no file to reload.')
        let file
        try {
          file = await readCatalogFile(path)
        } catch (e) {
          return consoleError(400, 'BAD_REQUEST', startupFailure('catalog', e, { file: path }).message)
        }
        await upsertCatalog(deps.db, file)
        await deps.catalog.refresh()
        const unresolved = deps.catalog.unresolvedSecrets()
        for (const g of unresolved)
          deps.log.warn('catalog: a gateway key reference names an unset variable; calls through it carry no key', {
            gateway: g.id,
            apiKey: g.ref,
          })
        return {
          gateways: file.gateways.length,
          models: file.models.length,
          unsetKeyVariables: [...new Set(unresolved.map((g) => g.ref.slice(4)))],
        }
      })
      .delete('/keys/:id', async ({ params }) => {
        const [row] = await deps.db
          .update(apiKeys)
          .set({ revokedAt: new Date() })
          .where(eq(apiKeys.id, params.id))
          .returning({ id: apiKeys.id })
        if (!row) return consoleError(404, 'NOT_FOUND', 'No such key.')
        deps.auth.invalidate(row.id)
        return { id: row.id, revoked: true }
      })
  )
}
