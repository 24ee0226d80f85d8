// A gateway's failover policy (docs/failover.md): the catalog's optional `policy` object with
// every field defaulted, so a catalog without one gets retries, a first-token deadline and a
// circuit breaker that work without configuration.
import { Type as t, type Static } from '@sinclair/typebox'
import type { GatewayPolicy } from '../core/gateway.ts'

export type { BreakerPolicy, GatewayPolicy } from '../core/gateway.ts'

const ms = (maximum: number) => t.Integer({ minimum: 0, maximum })

/** The catalog's `gateways[].policy` (every member optional). */
export const PolicyFile = t.Object(
  {
    /** Extra attempts on the same route after a 5xx, 429, reset or timeout. */
    retries: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
    /** First backoff; doubles per retry, with full jitter, up to backoffMaxMs. */
    backoffMs: t.Optional(ms(60_000)),
    backoffMaxMs: t.Optional(ms(60_000)),
    /** Longest Retry-After / retry-after-ms honoured; a longer one moves on to the next route. */
    retryAfterMaxMs: t.Optional(ms(600_000)),
    /** Retries on this gateway start only within this long after the call began. */
    deadlineMs: t.Optional(ms(3_600_000)),
    /** A stream's first content event must arrive within this long, when another route remains. */
    firstTokenMs: t.Optional(t.Integer({ minimum: 1, maximum: 600_000 })),
    breaker: t.Optional(
      t.Object(
        {
          enabled: t.Optional(t.Boolean()),
          /** Consecutive failures that open the breaker. */
          failures: t.Optional(t.Integer({ minimum: 1, maximum: 1_000 })),
          /** Share of failures over the last `window` attempts that opens it. */
          failureRate: t.Optional(t.Number({ exclusiveMinimum: 0, maximum: 1 })),
          window: t.Optional(t.Integer({ minimum: 2, maximum: 1_000 })),
          /** How long an open breaker skips the route before one probe is let through. */
          cooldownMs: t.Optional(t.Integer({ minimum: 1, maximum: 3_600_000 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)
export type PolicyFile = Static<typeof PolicyFile>

export const DEFAULT_POLICY: GatewayPolicy = {
  retries: 2,
  backoffMs: 250,
  backoffMaxMs: 4_000,
  retryAfterMaxMs: 10_000,
  deadlineMs: 60_000,
  firstTokenMs: 15_000,
  breaker: { enabled: true, failures: 5, failureRate: 0.5, window: 20, cooldownMs: 30_000 },
}

/** The effective policy of a gateway; fields the catalog left out take the defaults. */
export function resolvePolicy(file: PolicyFile | null | undefined): GatewayPolicy {
  const f = file ?? {}
  return {
    retries: f.retries ?? DEFAULT_POLICY.retries,
    backoffMs: f.backoffMs ?? DEFAULT_POLICY.backoffMs,
    backoffMaxMs: Math.max(f.backoffMaxMs ?? DEFAULT_POLICY.backoffMaxMs, f.backoffMs ?? 0),
    retryAfterMaxMs: f.retryAfterMaxMs ?? DEFAULT_POLICY.retryAfterMaxMs,
    deadlineMs: f.deadlineMs ?? DEFAULT_POLICY.deadlineMs,
    firstTokenMs: f.firstTokenMs ?? DEFAULT_POLICY.firstTokenMs,
    breaker: { ...DEFAULT_POLICY.breaker, ...f.breaker },
  }
}
