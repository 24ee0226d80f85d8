// The admin API's shapes as the operator pages read them (docs/operators.md).
export interface ModelLine {
  model: string
  calls: number
  errors: number
  errorRate: number | null
  usage: number
  upstreamCost: number | null
  margin: number | null
  p50Ms: number | null
  p95Ms: number | null
}

export interface Summary {
  topups: { count: number; amount: number }
  refunds: { count: number; amount: number }
  usage: number
  upstreamCost: number | null
  margin: number | null
  calls: number
  errors: number
  errorRate: number | null
  models: ModelLine[]
  topUsers: { userId: string; email: string | null; calls: number; usage: number }[]
}

export interface Day {
  day: string
  topups: number
  usage: number
  calls: number
}

export interface AdminUser {
  id: string
  email: string
  role: 'user' | 'admin'
  createdAt: string
  disabled: boolean
  balance: number
  reserved?: number
}

export interface Window {
  calls: number
  errors: number
  errorRate: number | null
  p50Ms: number | null
}

export interface GatewayRoute {
  model: string
  upstreamModel: string
  enabled: boolean
  breaker: string
  nextProbeInMs: number
  last5m: Window
  last60m: Window
}

export interface GatewayView {
  id: string
  protocol: string
  /** `aws-sigv4`, `google-service-account`, `azure-entra`, `api-key` or `none`. */
  auth: string
  enabled: boolean
  breaker: string
  last5m: Window
  last60m: Window
  routes: GatewayRoute[]
}

export interface DeadLetter {
  id: string
  requestId: string | null
  error: string
  raw: string
  createdAt: string
}

export interface AuditRow {
  id: string
  at: string
  actor: string
  actorEmail: string | null
  action: string
  target: string | null
  before: unknown
  after: unknown
  note: string | null
}
