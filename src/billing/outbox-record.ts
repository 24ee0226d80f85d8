// What settlement hands to the ledger writer through the store's outbox: one request log and,
// when it cost anything, one usage ledger entry. Versioned so old entries stay readable.
import type { Fault, UpstreamAttempt } from '../core/call-end.ts'
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
  /** The candidate models of a call that had more than one, comma-separated in order (docs/failover.md "Model fallbacks"). */
  chain?: string
  /** Whose failure ended the call (core/call-end.ts); absent: none. Errors are counted by it. */
  fault?: Fault
  /** Every upstream attempt, in order, when one of them failed; absent: the one route logged answered at once. */
  attempts?: UpstreamAttempt[]
}

/** At most this many attempts are kept per record (a call's retries and failovers are bounded well below). */
export const MAX_ATTEMPTS = 32
const FAULTS: ReadonlySet<unknown> = new Set(['upstream', 'tollgate'])

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
    usageSource: textOrNull(r.usageSource) as UsageSource,
    latencyMs: int4(r.latencyMs),
    at: typeof r.at === 'number' && Number.isFinite(r.at) ? Math.floor(r.at) : Date.now(),
    ...(r.chain !== undefined ? { chain: text(r.chain) } : {}),
    ...(FAULTS.has(r.fault) ? { fault: r.fault } : {}),
    ...(Array.isArray(r.attempts) && r.attempts.length > 0 ? { attempts: r.attempts.slice(0, MAX_ATTEMPTS).map(sanitizeAttempt) } : {}),
  }
}

function sanitizeAttempt(a: Partial<UpstreamAttempt>): UpstreamAttempt {
  return {
    gateway: text(a.gateway),
    model: text(a.model),
    upstreamModel: text(a.upstreamModel),
    outcome: text(a.outcome),
    ...(a.status !== undefined ? { status: int4(a.status) } : {}),
    ...(a.failure !== undefined ? { failure: text(a.failure) } : {}),
    ms: int4(a.ms),
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
  /** The candidate slugs, when there was more than one. */
  chain?: string[]
}

/** Who made a resolved call (its model the catalog's), picked field by field: a call carries far more than its record names. */
export const recorded = (c: Omit<RecordedCall, 'model'> & { model: { id: string } }): RecordedCall => ({
  requestId: c.requestId,
  principal: c.principal,
  model: c.model.id,
  protocol: c.protocol,
  stream: c.stream,
  at: c.at,
  ...(c.chain ? { chain: c.chain } : {}),
})

/** How a call ended, as its record tells it. */
export interface RecordedEnd {
  gateway: string | null
  status: number
  errorCode: string | null
  fault: Fault | null
  /** The call's upstream attempts; kept only when one of them failed. */
  attempts?: readonly UpstreamAttempt[]
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
    ...(c.chain ? { chain: c.chain.join(',') } : {}),
    ...(e.fault ? { fault: e.fault } : {}),
    ...(e.attempts?.some((a) => a.outcome !== 'ok') ? { attempts: [...e.attempts] } : {}),
  })
}

/** Members of OutboxRecord (without the optional chain, fault and attempts) and of Usage (test/billing/outbox-record.test.ts holds them to it). */
const RECORD_FIELDS = 15
const USAGE_FIELDS = 5

function fieldCount(o: object): number {
  let n = 0
  for (const _ in o) n++
  return n
}

/**
 * Whether sanitizeRecord would give back exactly `r` — the same members, none changed — checked
 * member by member with the same rules, without building the sanitised copy.
 */
export function isSanitized(r: OutboxRecord): boolean {
  const u = r.usage as Partial<Usage> | null | undefined
  return (
    r.v === 1 &&
    text(r.requestId) === r.requestId &&
    text(r.userId) === r.userId &&
    text(r.keyId) === r.keyId &&
    text(r.model) === r.model &&
    textOrNull(r.gateway) === r.gateway &&
    text(r.protocol) === r.protocol &&
    typeof r.stream === 'boolean' &&
    int4(r.status) === r.status &&
    textOrNull(r.errorCode) === r.errorCode &&
    typeof u === 'object' &&
    u !== null &&
    int4(u.inputTokens) === u.inputTokens &&
    int4(u.outputTokens) === u.outputTokens &&
    int4(u.cacheReadTokens) === u.cacheReadTokens &&
    int4(u.cacheWriteTokens) === u.cacheWriteTokens &&
    int4(u.reasoningTokens) === u.reasoningTokens &&
    fieldCount(u) === USAGE_FIELDS &&
    int4(r.latencyMs) === r.latencyMs &&
    typeof r.at === 'number' &&
    Number.isFinite(r.at) &&
    Math.floor(r.at) === r.at &&
    'cost' in r &&
    textOrNull(r.usageSource) === r.usageSource &&
    (r.chain === undefined || text(r.chain) === r.chain) &&
    (r.fault === undefined || FAULTS.has(r.fault)) &&
    // A record with attempts is re-encoded (only calls where an attempt failed carry them).
    r.attempts === undefined &&
    fieldCount(r) === RECORD_FIELDS + (r.chain === undefined ? 0 : 1) + (r.fault === undefined ? 0 : 1)
  )
}

/**
 * The record as the ledger writer writes it (docs/operations.md "Ledger writer"): itself when it
 * already is what sanitizeRecord gives back — every record Tollgate appends is — else the
 * sanitised copy.
 */
export const sanitizedRecord = (r: OutboxRecord): OutboxRecord => (isSanitized(r) ? r : sanitizeRecord(r))

export function decodeRecord(text: string): OutboxRecord | undefined {
  try {
    const r = JSON.parse(text) as OutboxRecord
    return r && r.v === 1 && typeof r.requestId === 'string' ? r : undefined
  } catch {
    return undefined
  }
}
