// Upstream gateways and routes as the router sees them (from the catalog).

export type GatewayProtocol =
  | 'openai-chat'
  | 'anthropic-messages'
  | 'openai-responses'
  /** Cloud wires (docs/providers.md "Cloud providers"): Anthropic models on Bedrock and Vertex, any model through Converse. */
  | 'bedrock-anthropic'
  | 'bedrock-converse'
  | 'vertex-anthropic'

/** An upstream request as it goes on the wire: what a signature covers. */
export interface OutgoingRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/**
 * The headers that authorize one request, or why there are none: a token the cloud refused or
 * could not be fetched, a signature that could not be made. `status` classes the failure as an
 * upstream answer would (401: refused; 503: the token service failed) for failover; `detail` is
 * for the log only and never carries a secret.
 */
export type AuthResult = { ok: true; headers: Record<string, string> } | { ok: false; status: number; detail: string }

/** A gateway's upstream auth (docs/providers.md "Cloud auth"): one object per gateway, its token cache with it. */
export interface UpstreamAuth {
  readonly type: 'aws-sigv4' | 'google-service-account' | 'azure-entra'
  authorize(req: OutgoingRequest): Promise<AuthResult>
}

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
  /** Signs or carries a token on every upstream call; absent: `apiKey` as the protocol sends it. */
  auth?: UpstreamAuth
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
