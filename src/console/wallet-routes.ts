// GET /api/wallet/account, /api/wallet/transactions(/:id), /api/logs, POST /api/wallet/topup.
import { Elysia, t } from 'elysia'
import { and, eq, gte, sql, type SQL } from 'drizzle-orm'
import { accountView } from '../billing/accounts.ts'
import { attachCheckout, createPendingTopup, failTopup } from '../billing/topups.ts'
import { GatewayError } from '../core/errors.ts'
import { ledgerEntries, requestLogs } from '../db/schema/index.ts'
import type { InferenceDeps } from '../inference/deps.ts'
import { formatUsd, usdToMicros } from '../lib/money.ts'
import { requireUser } from './current-user.ts'
import { decodeCursor, page, pageLimit } from './pagination.ts'
import type { PaymentProvider } from './payments/provider.ts'

const usd = (micros: bigint) => Number(formatUsd(micros))
const KINDS = ['topup', 'usage', 'refund', 'adjustment'] as const
const STATUSES = ['pending', 'completed', 'failed'] as const

function txnView(e: typeof ledgerEntries.$inferSelect) {
  return {
    id: e.id,
    kind: e.kind,
    status: e.status,
    amount: usd(e.amountMicros),
    currency: 'USD',
    method: e.method,
    requestId: e.requestId,
    createdAt: e.createdAt.toISOString(),
    completedAt: e.completedAt?.toISOString() ?? null,
  }
}

/** Keyset condition: strictly after the cursor in (created_at desc, id desc) order. */
const after = (table: typeof ledgerEntries | typeof requestLogs, cursor: string | undefined): SQL | undefined => {
  const c = decodeCursor(cursor)
  return c ? sql`(${table.createdAt}, ${table.id}) < (${c.at}::timestamptz, ${c.id})` : undefined
}

export function walletRoutes(deps: InferenceDeps, providers: Map<string, PaymentProvider>, baseUrl: (req: Request) => string) {
  const { db } = deps
  return new Elysia({ prefix: '/api' })
    .get('/wallet/account', async ({ request }) => {
      const user = await requireUser(db, request.headers)
      const { balance, reserved } = await accountView(db, deps.store, user.id)
      const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1))
      const [month] = await db
        .select({ spent: sql<string>`coalesce(-sum(${ledgerEntries.amountMicros}), 0)::text` })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'usage'), eq(ledgerEntries.status, 'completed'), gte(ledgerEntries.createdAt, monthStart)))
      const [pending] = await db
        .select({ n: sql<number>`count(*)::int`, sum: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)::text` })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'topup'), eq(ledgerEntries.status, 'pending')))
      return {
        balance: usd(balance),
        reserved: usd(reserved),
        available: usd(balance - reserved),
        currency: 'USD',
        spentThisMonth: usd(BigInt(month?.spent ?? '0')),
        pendingTopups: { count: pending?.n ?? 0, amount: usd(BigInt(pending?.sum ?? '0')) },
      }
    })
    .get(
      '/wallet/transactions',
      async ({ request, query }) => {
        const user = await requireUser(db, request.headers)
        const limit = pageLimit(query.limit)
        const rows = await db
          .select({ row: ledgerEntries, createdText: sql<string>`${ledgerEntries.createdAt}::text` })
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.userId, user.id), query.kind ? eq(ledgerEntries.kind, query.kind) : undefined, query.status ? eq(ledgerEntries.status, query.status) : undefined, after(ledgerEntries, query.cursor)))
          .orderBy(sql`${ledgerEntries.createdAt} desc, ${ledgerEntries.id} desc`)
          .limit(limit + 1)
        const p = page(rows.map((r) => ({ ...r, id: r.row.id })), limit)
        return { items: p.items.map((r) => txnView(r.row)), nextCursor: p.nextCursor }
      },
      {
        query: t.Object({
          limit: t.Optional(t.String()),
          cursor: t.Optional(t.String()),
          kind: t.Optional(t.Union(KINDS.map((k) => t.Literal(k)))),
          status: t.Optional(t.Union(STATUSES.map((s) => t.Literal(s)))),
        }),
      },
    )
    .get('/wallet/transactions/:id', async ({ request, params }) => {
      const user = await requireUser(db, request.headers)
      const [e] = await db.select().from(ledgerEntries).where(and(eq(ledgerEntries.id, params.id), eq(ledgerEntries.userId, user.id)))
      if (!e) throw new GatewayError('NOT_FOUND', 'No such transaction.')
      const meta = (e.meta ?? {}) as Record<string, any>
      return {
        ...txnView(e),
        keyId: e.keyId,
        ...(e.kind === 'usage' ? { model: meta.model ?? null, usage: meta.usage ?? null, usageSource: meta.usageSource ?? null } : {}),
        ...(e.kind === 'refund' ? { refundOf: meta.refundOf ?? null } : {}),
        ...(e.kind === 'topup' ? { failure: meta.failure ?? null } : {}),
        note: meta.note ?? null,
      }
    })
    .get(
      '/logs',
      async ({ request, query }) => {
        const user = await requireUser(db, request.headers)
        const limit = pageLimit(query.limit)
        const rows = await db
          .select({ row: requestLogs, createdText: sql<string>`${requestLogs.createdAt}::text` })
          .from(requestLogs)
          .where(and(eq(requestLogs.userId, user.id), after(requestLogs, query.cursor)))
          .orderBy(sql`${requestLogs.createdAt} desc, ${requestLogs.id} desc`)
          .limit(limit + 1)
        const p = page(rows.map((r) => ({ ...r, id: r.row.id })), limit)
        return { items: p.items.map(({ row }) => ({ ...row, costMicros: undefined, cost: usd(row.costMicros), userId: undefined, createdAt: row.createdAt.toISOString() })), nextCursor: p.nextCursor }
      },
      { query: t.Object({ limit: t.Optional(t.String()), cursor: t.Optional(t.String()) }) },
    )
    .post(
      '/wallet/topup',
      async ({ request, body, set }) => {
        const user = await requireUser(db, request.headers)
        const micros = usdToMicros(body.amount)
        const { topupMinUsd: min, topupMaxUsd: max } = deps.config
        if (micros === undefined || micros % 10_000n !== 0n || body.amount < min || body.amount > Math.min(max, 10_000))
          throw new GatewayError('BAD_REQUEST', `amount must be between ${min} and ${Math.min(max, 10_000)} USD, in whole cents.`)
        const provider = providers.get(body.provider)
        if (!provider) throw new GatewayError('PAYMENT_REQUIRED', `Payment provider '${body.provider}' is not configured.`)
        const id = await createPendingTopup(db, user.id, micros, provider.name)
        try {
          const checkout = await provider.createCheckout({ transactionId: id, amountCents: Number(micros / 10_000n), email: user.email, returnUrl: `${baseUrl(request)}/console/wallet`, origin: baseUrl(request) })
          await attachCheckout(db, id, { checkoutSession: checkout.sessionId })
          set.status = 201
          return { transactionId: id, checkoutUrl: checkout.url }
        } catch (cause) {
          await failTopup(db, id, provider.name, 'checkout could not be created')
          throw new GatewayError('UPSTREAM_ERROR', 'The payment provider could not open a checkout; try again.', { cause })
        }
      },
      { body: t.Object({ amount: t.Number(), provider: t.String({ maxLength: 50 }) }) },
    )
}
