// Issuing an API key for a user: the one path of the admin API, the console and the demo. The
// secret is returned once; only its hash and display prefix are stored (api-keys.ts).
import type { Db } from '../db/client.ts'
import { apiKeys } from '../db/schema/index.ts'
import { GatewayError } from '../core/errors.ts'
import { parseIsoDateTime } from '../lib/dates.ts'
import { base62 } from '../lib/ids.ts'
import { usdToMicros } from '../lib/money.ts'
import { generateApiKey } from './api-keys.ts'

export interface KeyRequest {
  userId: string
  name?: string
  /** Spending limit in USD; null or absent = none. */
  limit?: number | null
  rpm?: number | null
  /** ISO 8601 date-time with a time zone; null or absent = never. */
  expiresAt?: string | null
  serviceMode?: string
}

/** A key for `input.userId`; refuses a negative or over-precise limit and an impossible date. */
export async function issueKey(deps: { db: Db }, input: KeyRequest): Promise<{ id: string; key: string; prefix: string }> {
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
