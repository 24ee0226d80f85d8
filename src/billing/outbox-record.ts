// What settlement hands to the ledger writer through the store's outbox: one request log and,
// when it cost anything, one usage ledger entry. Versioned so old entries stay readable.
import type { Usage } from '../core/usage.ts'
import { safeText } from '../lib/safe-text.ts'

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

/** Longest text a record carries per field, in code points (request_logs columns are text). */
export const MAX_FIELD_CHARS = 200
const INT4_MAX = 2_147_483_647

const text = (s: unknown): string => safeText(typeof s === 'string' ? s : String(s ?? ''), MAX_FIELD_CHARS)
const textOrNull = (s: unknown): string | null => (s === null || s === undefined ? null : text(s))
const int4 = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? Math.min(INT4_MAX, Math.max(0, Math.floor(n))) : 0)

/**
 * The record with every value made acceptable to Postgres (docs/operations.md "Ledger
 * writer"): text without NUL or unpaired surrogates, cut on code-point boundaries; token counts
 * and latency within int4. Money (`cost`) is left exactly as it is.
 */
export function sanitizeRecord(r: OutboxRecord): OutboxRecord {
  const u = (r.usage ?? {}) as Partial<Usage>
  return {
    v: 1,
    requestId: text(r.requestId),
    userId: text(r.userId),
    keyId: text(r.keyId),
    model: text(r.model),
    gateway: textOrNull(r.gateway),
    protocol: text(r.protocol),
    stream: r.stream === true,
    status: int4(r.status),
    errorCode: textOrNull(r.errorCode),
    usage: {
      inputTokens: int4(u.inputTokens),
      outputTokens: int4(u.outputTokens),
      cacheReadTokens: int4(u.cacheReadTokens),
      cacheWriteTokens: int4(u.cacheWriteTokens),
      reasoningTokens: int4(u.reasoningTokens),
    },
    cost: r.cost,
    usageSource: r.usageSource,
    latencyMs: int4(r.latencyMs),
    at: typeof r.at === 'number' && Number.isFinite(r.at) ? Math.floor(r.at) : Date.now(),
  }
}

export const encodeRecord = (r: OutboxRecord): string => JSON.stringify(sanitizeRecord(r))

/** Who made a call, as every record of it names them. */
export interface RecordedCall {
  requestId: string
  principal: { userId: string; keyId: string }
  /** The public model slug (or, for a call refused before resolution, the name it asked for). */
  model: string
  protocol: string
  stream: boolean
  /** epoch ms at request receipt */
  at: number
}

/** Who made a resolved call (its model the catalog's), picked field by field: a call carries far more than its record names. */
export const recorded = (c: Omit<RecordedCall, 'model'> & { model: { id: string } }): RecordedCall => ({
  requestId: c.requestId,
  principal: c.principal,
  model: c.model.id,
  protocol: c.protocol,
  stream: c.stream,
  at: c.at,
})

/** How a call ended, as its record tells it. */
export interface RecordedEnd {
  gateway: string | null
  status: number
  errorCode: string | null
  usage: Usage
  costMicros: bigint
  usageSource: UsageSource
  latencyMs: number
}

/** The one place an outbox record of a call is built (settlement, rejected calls, leases): encoded. */
export function callRecord(c: RecordedCall, e: RecordedEnd): string {
  return encodeRecord({
    v: 1,
    requestId: c.requestId,
    userId: c.principal.userId,
    keyId: c.principal.keyId,
    model: c.model, // cut to MAX_FIELD_CHARS code points by sanitizeRecord
    gateway: e.gateway,
    protocol: c.protocol,
    stream: c.stream,
    status: e.status,
    errorCode: e.errorCode,
    usage: e.usage,
    cost: e.costMicros.toString(),
    usageSource: e.usageSource,
    latencyMs: e.latencyMs,
    at: c.at,
  })
}

export function decodeRecord(text: string): OutboxRecord | undefined {
  try {
    const r = JSON.parse(text) as OutboxRecord
    return r && r.v === 1 && typeof r.requestId === 'string' ? r : undefined
  } catch {
    return undefined
  }
}
