// Upstream gateways and routes as the router sees them (from the catalog).

export type GatewayProtocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses'

export interface Gateway {
  id: string
  protocol: GatewayProtocol
  baseUrl: string
  apiKey: string | undefined
  timeoutMs: number
  enabled: boolean
}

export interface Route {
  gateway: Gateway
  upstreamModel: string
}
