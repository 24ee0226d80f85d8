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
}

export interface Route {
  gateway: Gateway
  upstreamModel: string
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
