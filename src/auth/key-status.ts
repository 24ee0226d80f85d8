// GET /v1/key (docs/api.md "Key"): the calling key's own state, shaped like OpenRouter's
// GET /api/v1/key — `{ data: { label, limit, usage, limit_remaining, … } }` — plus its rate
// limit, expiry and the account's balance. USD numbers; `usage` is what Postgres holds for the
// key (settled calls reach it within SETTLE_FLUSH_MS), the balance is the live one.
import { eq } from 'drizzle-orm'
import { accountView } from '../billing/accounts.ts'
import { periodSpent } from '../billing/period-spend.ts'
import { GatewayError } from '../core/errors.ts'
import type { Db } from '../db/client.ts'
import { apiKeys } from '../db/schema/index.ts'
import { formatUsd } from '../lib/money.ts'
import type { Store } from '../store/types.ts'
import type { KeyPrincipal } from './api-keys.ts'

export interface KeyStatusDeps {
  db: Db
  store: Store
  now: () => number
}

const usd = (micros: bigint) => Number(formatUsd(micros))

export async function keyStatus(deps: KeyStatusDeps, principal: KeyPrincipal) {
  const now = new Date(deps.now())
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const [[key], [month], account] = await Promise.all([
    deps.db.select().from(apiKeys).where(eq(apiKeys.id, principal.keyId)),
    periodSpent(deps.db, principal.userId, [principal.keyId], monthStart).then((m) => [m.get(principal.keyId) ?? 0n]),
    accountView(deps.db, deps.store, principal.userId),
  ])
  // Revoked since the key cache vouched for it: answered as the next call would be.
  if (!key || key.revokedAt) throw new GatewayError('UNAUTHORIZED', 'Invalid, revoked or expired API key.')
  const remaining = key.limitMicros === null ? null : key.limitMicros > key.spentMicros ? key.limitMicros - key.spentMicros : 0n
  return {
    data: {
      id: key.id,
      label: key.name || `${key.prefix}…`,
      prefix: key.prefix,
      limit: key.limitMicros === null ? null : usd(key.limitMicros),
      usage: usd(key.spentMicros),
      usage_monthly: usd(month ?? 0n),
      limit_remaining: remaining === null ? null : usd(remaining),
      rate_limit: { requests: principal.rpm, interval: '1m' },
      expires_at: key.expiresAt?.toISOString() ?? null,
      service_mode: key.serviceMode,
      created_at: key.createdAt.toISOString(),
      account: {
        balance: usd(account.balance),
        reserved: usd(account.reserved),
        available: usd(account.balance - account.reserved),
        currency: 'USD',
      },
    },
  }
}
