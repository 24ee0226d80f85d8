// What settlement hands to the ledger writer through the store's outbox: one request log and,
// when it cost anything, one usage ledger entry. Versioned so old entries stay readable.
import type { Usage } from '../core/usage.ts'

export type UsageSource = 'upstream' | 'none' | 'estimate'

export interface OutboxRecord {
  v: 1
  requestId: string
  userId: string
  keyId: string
  model: string
  gateway: string | null
  protocol: string
  stream: boolean
  status: number
  errorCode: string | null
  usage: Usage
  /** micro-USD as decimal text (JSON has no bigint). */
  cost: string
  usageSource: UsageSource
  latencyMs: number
  /** epoch ms at request receipt. */
  at: number
}

export const encodeRecord = (r: OutboxRecord): string => JSON.stringify(r)

export function decodeRecord(text: string): OutboxRecord | undefined {
  try {
    const r = JSON.parse(text) as OutboxRecord
    return r && r.v === 1 && typeof r.requestId === 'string' ? r : undefined
  } catch {
    return undefined
  }
}
