// What a mirror reload reads of an outbox record (docs/operations.md "Reloading a mirror"): whom
// it bills and how much. Records are billing's (src/billing/outbox-record.ts: JSON with string
// fields requestId, userId, keyId and cost, micro-USD as decimal text); lua/load.lua reads the
// same fields the same way.
import type { OutboxCall } from './types.ts'

const DIGITS = /^\d+$/

/** The record's call when it bills `userId` a cost above zero; anything else (or unreadable) is undefined. */
export function outboxCallOf(record: string, userId: string): OutboxCall | undefined {
  // Most records of a shard are other accounts': skip them without parsing.
  if (!record.includes(`"userId":${JSON.stringify(userId)}`)) return undefined
  let r: { requestId?: unknown; userId?: unknown; keyId?: unknown; cost?: unknown }
  try {
    r = JSON.parse(record)
  } catch {
    return undefined
  }
  if (r === null || typeof r !== 'object' || r.userId !== userId) return undefined
  if (typeof r.requestId !== 'string' || typeof r.keyId !== 'string') return undefined
  if (typeof r.cost !== 'string' || !DIGITS.test(r.cost)) return undefined
  const costMicros = BigInt(r.cost)
  return costMicros > 0n ? { requestId: r.requestId, keyId: r.keyId, costMicros } : undefined
}
