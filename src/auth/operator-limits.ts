// Limits an operator set on a key (docs/console.md "API keys"): what the admin API writes on a key
// — its spend limit (with its period), rpm, expiry, model and network allowlists, tpm, calls in
// flight — is the operator's. The owner may tighten each, never lift or loosen it: a lower number,
// an earlier expiry, a longer spend period, fewer models, narrower blocks. Pure.
import { GatewayError } from '../core/errors.ts'
import type { apiKeys, OperatorLimits } from '../db/schema/index.ts'
import { blockWithin, parseIpBlock } from '../lib/ip.ts'
import type { KeyPatch } from './update-key.ts'
import { expiryOf, limitMicrosOf } from './issue-key.ts'
import { modelMatcher } from './model-globs.ts'

/** A key's limit columns, as a row holds them after a write. */
export type LimitValues = Pick<
  typeof apiKeys.$inferSelect,
  'limitMicros' | 'rpm' | 'tpm' | 'maxConcurrent' | 'expiresAt' | 'models' | 'ipAllowlist' | 'limitReset'
>
type Counted = 'rpm' | 'tpm' | 'maxConcurrent'
const COUNTED: Counted[] = ['rpm', 'tpm', 'maxConcurrent']

/** Spend periods from the tightest (lifetime) to the loosest (a limit renewed every day). */
const PERIOD_RANK = { lifetime: 0, monthly: 1, weekly: 2, daily: 3 } as const
const rank = (p: OperatorLimits['limitReset']) => PERIOD_RANK[p ?? 'lifetime']

/**
 * The operator's limits after an admin API write of `patch` (a creation or a PATCH) left the key
 * as `row`: a member set to a value is the operator's at that value, one set to null is no longer
 * the operator's, an absent one stays as it was. A locked spend limit locks its period too.
 */
export function operatorLimitsAfter(before: OperatorLimits | null, patch: KeyPatch, row: LimitValues): OperatorLimits | null {
  const out: OperatorLimits = { ...before }
  const take = <M extends keyof OperatorLimits>(member: M, given: unknown, value: OperatorLimits[M]) => {
    if (given === undefined) return
    if (given === null) delete out[member]
    else out[member] = value
  }
  take('limitMicros', patch.limit, row.limitMicros?.toString())
  for (const m of COUNTED) take(m, patch[m], row[m] ?? undefined)
  take('expiresAt', patch.expiresAt, row.expiresAt?.toISOString())
  take('models', patch.models, row.models ?? undefined)
  take('ipAllowlist', patch.ipAllowlist, row.ipAllowlist ?? undefined)
  if (out.limitMicros !== undefined || (patch.limitReset !== undefined && patch.limitReset !== null)) out.limitReset = row.limitReset
  else if (patch.limitReset === null || patch.limit === null) delete out.limitReset
  return Object.keys(out).length > 0 ? out : null
}

const refused = (field: string, how: string) =>
  new GatewayError('FORBIDDEN', `${field}: set by the operator; you may ${how}, not lift or loosen it.`, { param: field })

/** Refuses (403 naming the member) an owner's change, its settings already checked, that lifts or loosens an operator's limit. */
export function checkOwnerPatch(limits: OperatorLimits | null, patch: KeyPatch): void {
  if (!limits) return
  if (limits.limitMicros !== undefined && patch.limit !== undefined) {
    const micros = limitMicrosOf(patch.limit)
    if (micros === null || micros > BigInt(limits.limitMicros)) throw refused('limit', 'lower it')
  }
  if (limits.limitReset !== undefined && patch.limitReset !== undefined && rank(patch.limitReset) > rank(limits.limitReset))
    throw refused('limitReset', 'make its period longer')
  for (const m of COUNTED) {
    const bound = limits[m]
    const value = patch[m]
    if (bound !== undefined && value !== undefined && (value === null || value > bound)) throw refused(m, 'lower it')
  }
  if (limits.expiresAt !== undefined && patch.expiresAt !== undefined) {
    const at = expiryOf(patch.expiresAt)
    if (at === null || at.getTime() > Date.parse(limits.expiresAt)) throw refused('expiresAt', 'bring it forward')
  }
  if (limits.models !== undefined && patch.models !== undefined) {
    // A pattern whose own text the operator's patterns match names only models they allow.
    const allowed = modelMatcher(limits.models)
    if (patch.models === null || !patch.models.every(allowed)) throw refused('models', 'keep fewer of its models')
  }
  if (limits.ipAllowlist !== undefined && patch.ipAllowlist !== undefined) {
    const outer = limits.ipAllowlist.map((b) => parseIpBlock(b)!)
    const inside = (text: string) => {
      const block = parseIpBlock(text)
      return block !== undefined && outer.some((o) => blockWithin(block, o))
    }
    if (patch.ipAllowlist === null || !patch.ipAllowlist.every(inside)) throw refused('ipAllowlist', 'narrow its blocks')
  }
}
