// A key as every listing shows it (docs/console.md "API keys"): USD numbers, its status, and its
// settings with the spend of the current period (docs/api.md "Key settings").
import { spendPeriod } from '../../billing/spend-period.ts'
import type { apiKeys, OperatorLimits } from '../../db/schema/index.ts'
import { formatUsd } from '../../lib/money.ts'
import type { KeyView } from './model.ts'

type KeyRow = typeof apiKeys.$inferSelect

const usd = (micros: bigint) => Number(formatUsd(micros))
const iso = (d: Date | null) => d?.toISOString() ?? null

/** The settings members of a listing; `spent` is the period's (period-spend.ts). */
export function settingsView(k: KeyRow, nowMs: number) {
  return {
    models: k.models,
    ipAllowlist: k.ipAllowlist,
    tpm: k.tpm,
    maxConcurrent: k.maxConcurrent,
    limitReset: k.limitReset,
    resetsAt: k.limitReset ? new Date(spendPeriod(k.limitReset, nowMs).endMs).toISOString() : null,
    operatorLimits: operatorView(k.operatorLimits),
  }
}

/** The operator's limits as a listing shows them: the spend limit in USD. */
function operatorView(limits: OperatorLimits | null) {
  if (!limits) return null
  const { limitMicros, ...rest } = limits
  return limitMicros === undefined ? rest : { ...rest, limit: usd(BigInt(limitMicros)) }
}

export function keyView(k: KeyRow, defaultRpm: number, nowMs: number, spentMicros: bigint): KeyView {
  const status = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt.getTime() <= nowMs ? 'expired' : 'active'
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    status,
    limit: k.limitMicros === null ? null : usd(k.limitMicros),
    spent: usd(spentMicros),
    remaining: k.limitMicros === null ? null : usd(k.limitMicros > spentMicros ? k.limitMicros - spentMicros : 0n),
    rpm: k.rpm ?? defaultRpm,
    serviceMode: k.serviceMode,
    expiresAt: iso(k.expiresAt),
    lastUsedAt: iso(k.lastUsedAt),
    revokedAt: iso(k.revokedAt),
    createdAt: k.createdAt.toISOString(),
    ...settingsView(k, nowMs),
  }
}
