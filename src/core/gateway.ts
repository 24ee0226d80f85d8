// Upstream gateways and routes as the router sees them (from the catalog).
import type { GatewayPolicy } from '../routing/policy.ts'

export type GatewayProtocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses'

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
