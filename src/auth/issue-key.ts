// Issuing an API key for a user: the one path of the admin API, the console and the demo. The
// secret is returned once; only its hash and display prefix are stored (api-keys.ts).
import type { Db } from '../db/client.ts'
import { apiKeys } from '../db/schema/index.ts'
import { GatewayError } from '../core/errors.ts'
import { parseIsoDateTime } from '../lib/dates.ts'
import { base62 } from '../lib/ids.ts'
import { usdToMicros } from '../lib/money.ts'
import { generateApiKey } from './api-keys.ts'
import type { KeySettingsInput } from './key-settings.ts'
import { type LimitValues, operatorLimitsAfter } from './operator-limits.ts'

export interface KeyRequest extends KeySettingsInput {
  userId: string
  name?: string
  /** Spending limit in USD; null or absent = none. */
  limit?: number | null
  rpm?: number | null
  /** ISO 8601 date-time with a time zone; null or absent = never. */
  expiresAt?: string | null
  serviceMode?: string
  /** Issued by the operator (the admin API): the limits it sets are theirs (operator-limits.ts). */
  byOperator?: boolean
}

/** The limit in micro-USD (null = none); refuses a negative or over-precise amount. */
export function limitMicrosOf(limit: number | null): bigint | null {
  const micros = limit === null ? null : usdToMicros(limit)
  if (micros === undefined || (micros !== null && micros < 0n))
    throw new GatewayError('BAD_REQUEST', 'limit must be a non-negative USD amount with at most 6 decimals.')
  return micros
}

/** The expiry as a date (null = never); refuses an impossible date. */
export function expiryOf(expiresAt: string | null): Date | null {
  const date = expiresAt ? (parseIsoDateTime(expiresAt) ?? null) : null
  if (expiresAt && !date)
    throw new GatewayError('BAD_REQUEST', 'expiresAt must be a real ISO 8601 date-time with a time zone (e.g. 2030-01-31T00:00:00Z).')
  return date
}

/** A key for `input.userId`, its settings already checked (key-settings.ts). */
export async function issueKey(deps: { db: Db }, input: KeyRequest): Promise<{ id: string; key: string; prefix: string }> {
  const limitMicros = limitMicrosOf(input.limit ?? null)
  const expiresAt = expiryOf(input.expiresAt ?? null)
  const { secret, hash, prefix } = generateApiKey()
  const id = `key_${base62(20)}`
  const limits: LimitValues = {
    limitMicros,
    rpm: input.rpm ?? null,
    expiresAt,
    models: input.models ?? null,
    ipAllowlist: input.ipAllowlist ?? null,
    tpm: input.tpm ?? null,
    maxConcurrent: input.maxConcurrent ?? null,
    limitReset: input.limitReset ?? null,
  }
  await deps.db.insert(apiKeys).values({
    id,
    userId: input.userId,
    name: input.name ?? '',
    keyHash: hash,
    prefix,
    serviceMode: input.serviceMode ?? 'performance',
    ...limits,
    operatorLimits: input.byOperator ? operatorLimitsAfter(null, input, limits) : null,
  })
  return { id, key: secret, prefix }
}
