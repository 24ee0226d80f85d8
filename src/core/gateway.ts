// Upstream gateways and routes as the router sees them (from the catalog).

export type GatewayProtocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses'

/** What a catalog model serves (docs/api.md "Catalog file"): the chat protocols, or POST /v1/embeddings. */
export type ModelKind = 'chat' | 'embedding'

export interface Gateway {
  id: string
  protocol: GatewayProtocol
  baseUrl: string
  apiKey: string | undefined
  timeoutMs: number
  enabled: boolean
  /** Retries, first-token deadline and circuit breaker (docs/failover.md), defaults filled in. */
  policy: GatewayPolicy
  /** Sent on every upstream call, `env:` references resolved (docs/providers.md "Headers and query"). */
  headers?: Record<string, string>
  query?: Record<string, string>
}

export interface Route {
  gateway: Gateway
  upstreamModel: string
  /** Lower first; absent: the route's position in the list (docs/failover.md "Priorities and weights"). */
  priority?: number
  /** Share of its priority's calls; absent: 1. */
  weight?: number
  /** The upstream account's quota per minute, across instances; undefined = none (docs/failover.md "Upstream limits"). */
  rpm?: number
  tpm?: number
}

/** A gateway's effective failover policy (docs/failover.md); routing/policy.ts fills in the defaults. */
export interface GatewayPolicy {
  retries: number
  backoffMs: number
  backoffMaxMs: number
  retryAfterMaxMs: number
  deadlineMs: number
  firstTokenMs: number
  breaker: BreakerPolicy
}

/** When a route's circuit breaker opens and how long it stays open (docs/failover.md). */
export interface BreakerPolicy {
  enabled: boolean
  failures: number
  failureRate: number
  window: number
  cooldownMs: number
}
