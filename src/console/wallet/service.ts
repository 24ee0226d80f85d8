// What a user checks before a run: balance (the store's live mirror when it has one), what is
// reserved by calls in flight, what this month cost, top-ups still waiting for their provider,
// and the top-up policy.
import { and, eq, gte, sql } from 'drizzle-orm'
import { accountView } from '../../billing/accounts.ts'
import { ledgerEntries } from '../../db/schema/index.ts'
import { formatUsd } from '../../lib/money.ts'
import type { ConsoleDeps } from '../deps.ts'
import { topupBounds } from '../topup/service.ts'
import type { Account } from './model.ts'

const usd = (micros: bigint) => Number(formatUsd(micros))

export async function accountSummary(
  deps: Pick<ConsoleDeps, 'db' | 'store' | 'now' | 'config' | 'payments'>,
  userId: string,
): Promise<Account> {
  const now = new Date(deps.now())
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const mine = (kind: 'usage' | 'topup', status: 'completed' | 'pending') =>
    and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, kind), eq(ledgerEntries.status, status))
  const [{ balance, reserved }, [month], [pending]] = await Promise.all([
    accountView(deps.db, deps.store, userId),
    deps.db
      .select({ spent: sql<string>`coalesce(-sum(${ledgerEntries.amountMicros}), 0)::text` })
      .from(ledgerEntries)
      .where(and(mine('usage', 'completed'), gte(ledgerEntries.createdAt, monthStart))),
    deps.db
      .select({ n: sql<number>`count(*)::int`, sum: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)::text` })
      .from(ledgerEntries)
      .where(mine('topup', 'pending')),
  ])
  const bounds = topupBounds(deps.config)
  return {
    balance: usd(balance),
    reserved: usd(reserved),
    available: usd(balance - reserved),
    currency: 'USD',
    spentThisMonth: usd(BigInt(month?.spent ?? '0')),
    pendingTopups: { count: pending?.n ?? 0, amount: usd(BigInt(pending?.sum ?? '0')) },
    topup: { min: usd(bounds.min), max: usd(bounds.max), providers: [...deps.payments.keys()] },
  }
}
